import { isMap, isNode, isPair, newLineCounter } from "./yaml-lib.js";
import type { Document } from "./yaml-lib.js";
import { quoteColonValues } from "./colon-retry.js";
import type { QuotedValue } from "./colon-retry.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import { SkillctxError } from "./errors.js";
import { parseSimpleFrontmatter } from "./frontmatter-fast.js";
import { normalizeText, splitText } from "./frontmatter-split.js";
import type { FrontmatterSplit, SplitFrontmatterOptions } from "./frontmatter-split.js";
import { MAX_FRONTMATTER_CHARS, MAX_YAML_ERRORS } from "./limits.js";
import { parseYamlBlock } from "./yaml-document.js";
import type { AliasTable, YamlBlock } from "./yaml-document.js";
import { asWritten, scalarText, typedValue, unresolvedAliases } from "./yaml-values.js";
import { errorText } from "./error-text.js";

/** The frontmatter of a file, read as data. */
export interface ParsedFrontmatter {
  /**
   * The block as a mapping with every scalar as written (`123` → `"123"`, empty → `""`), or undefined when
   * the file has no frontmatter, the block is not a YAML mapping, or its YAML is broken.
   */
  data: Record<string, unknown> | undefined;
  /** The body; the whole normalised text whenever `data` is undefined, so no content is ever lost. */
  body: string;
  /** 1-based line of the file where `body` starts. */
  bodyLine: number;
  /** What was tolerated or went wrong, with lines of the file. */
  diagnostics: Diagnostic[];
}

/** Options for {@link parseFrontmatter}. */
export interface ParseFrontmatterOptions extends SplitFrontmatterOptions {
  /** File path, copied into diagnostics. */
  path?: string;
  /**
   * Also repair one-line flow-like values strict YAML rejects (`tags: [next,@supabase/ssr]`), as Codex
   * reads a SKILL.md; the skill parser sets it for SKILL.md only. @default false
   */
  repairFlowValues?: boolean;
}

/**
 * Reads the frontmatter of a markdown file. Never throws: problems become diagnostics, and whenever the
 * block cannot be read as a mapping the whole text is kept as the body.
 *
 * Tolerances (each with a warning): an unclosed block, a block that is not a mapping, and the values
 * Codex repairs when a block breaks YAML: a plain value with an unquoted `: `, or a one-line flow-like
 * value that is not valid YAML (retried with the value quoted; see `quoteColonValues`). Broken YAML is `YAML_INVALID`
 * (error) with the line in the file (at most `MAX_YAML_ERRORS` of them, then one that counts the rest);
 * duplicate keys, nesting deeper than `MAX_YAML_DEPTH` and aliases that expand past
 * `MAX_YAML_ALIAS_EXPANSIONS` values are broken YAML. A block longer than `maxFrontmatterChars` is
 * `FRONTMATTER_TOO_LARGE` (error) and is not read.
 */
export function parseFrontmatter(text: string, options: ParseFrontmatterOptions = {}): ParsedFrontmatter {
  const read = readFrontmatter(text, options);
  return { data: read.data, body: read.body, bodyLine: read.bodyLine, diagnostics: read.diagnostics };
}

/** {@link parseFrontmatter} plus what the skill parser needs. @internal */
export interface FrontmatterRead extends ParsedFrontmatter {
  split: FrontmatterSplit;
  /** File line of a top-level key, when the key is there. */
  keyLine: (key: string) => number | undefined;
  /** A top-level value with its YAML types (numbers, booleans, null) instead of as written. */
  typedValue: (key: string) => unknown;
}

/** @internal */
export function readFrontmatter(text: string, options: ParseFrontmatterOptions = {}): FrontmatterRead {
  const where = (line: number | undefined) => ({ path: options.path, line });
  const { split, fast: readWhileSplitting } = splitText(text, options);
  const diagnostics: Diagnostic[] = [];
  // No data: the whole (normalised) text is the body. Made only on that path.
  const unread = (): FrontmatterRead => ({
    split,
    data: undefined,
    diagnostics,
    keyLine: none,
    typedValue: none,
    // Stryker disable next-line ConditionalExpression: without a block the split body is the normalised text itself
    body: split.frontmatter === undefined ? split.body : normalizeText(text),
    bodyLine: 1,
  });
  if (split.frontmatter === undefined) {
    if (split.tooLarge === true) {
      const max = (options.maxFrontmatterChars ?? MAX_FRONTMATTER_CHARS).toLocaleString("en-US");
      diagnostics.push(
        diagnostic(
          "FRONTMATTER_TOO_LARGE",
          "error",
          `frontmatter is longer than ${max} characters; not read`,
          where(split.fenceLine),
        ),
      );
    } else if (split.unclosed === true) {
      diagnostics.push(
        diagnostic(
          "FRONTMATTER_UNCLOSED",
          "warning",
          "frontmatter opened with --- is never closed; the whole file is read as the body",
          where(split.fenceLine),
        ),
      );
    }
    return unread();
  }
  const firstLine = split.frontmatterLine ?? 1;
  const body = { body: split.body, bodyLine: split.bodyLine };
  // Stryker disable next-line LogicalOperator: a shortcut; the full path reads what the fast reader reads alike (frontmatter-fast.test.ts's properties)
  const fast = readWhileSplitting ?? parseSimpleFrontmatter(split.frontmatter);
  // Stryker disable next-line ConditionalExpression,BlockStatement: a shortcut; the full path reads what the fast reader reads alike (frontmatter-fast.test.ts's properties)
  if (fast !== undefined) {
    const block = split.frontmatter;
    let typed: YamlBlock | undefined;
    const typedOf = (key: string) => {
      typed ??= parseYamlBlock(block);
      return topLevelValue(typed, key);
    };
    const keyLine = (key: string) => {
      const line = fast.keyLines.get(key);
      return line === undefined ? undefined : firstLine + line;
    };
    // No dropPrototypeKeys here: the fast reader gives up on a `__proto__` key at any depth.
    return { split, data: fast.data, diagnostics, keyLine, typedValue: typedOf, ...body };
  }
  try {
    return readYaml(
      split.frontmatter,
      firstLine,
      diagnostics,
      where,
      body,
      unread(),
      options.repairFlowValues === true,
    );
  } catch (error) {
    // Nothing in readYaml should throw on any input; if something does, the file still gets a diagnostic.
    const message = errorText(error);
    diagnostics.push(
      diagnostic("YAML_INVALID", "error", `invalid YAML in frontmatter: cannot be read (${message})`, where(firstLine)),
    );
    return unread();
  }
}

const none = (): undefined => undefined;

/** The full YAML path: parse (with the colon retry), convert, report. `failed` is returned when the block cannot be read. */
function readYaml(
  frontmatter: string,
  firstLine: number,
  diagnostics: Diagnostic[],
  where: (line: number | undefined) => { path: string | undefined; line: number | undefined },
  body: { body: string; bodyLine: number },
  failed: FrontmatterRead,
  flowLike: boolean,
): FrontmatterRead {
  const { split } = failed;
  let block = frontmatter;
  let lineCounter = newLineCounter();
  let parsed = parseYamlBlock(block, { lineCounter });
  if (parsed.errors.length > 0) {
    const retry = quoteColonValues(block, { flowLike });
    if (retry !== undefined) {
      const retryCounter = newLineCounter();
      const retried = parseYamlBlock(retry.text, { lineCounter: retryCounter });
      if (retried.errors.length === 0) {
        for (const q of retry.quoted) {
          diagnostics.push(recoveredValue(q, where(firstLine + q.line)));
        }
        block = retry.text;
        parsed = retried;
        lineCounter = retryCounter;
      }
    }
  }
  const counter = lineCounter;
  const toLine = (offset: number) => firstLine + counter.linePos(offset).line - 1;
  if (parsed.errors.length > 0) {
    pushYamlErrors(
      parsed.errors.map((e) => ({ message: yamlMessage(e.message), line: toLine(e.offset) })),
      diagnostics,
      where,
    );
    return failed;
  }
  const { doc, aliases } = parsed;
  const contents = doc.contents;
  if (contents === null) {
    // An empty (or comment-only) block: no metadata, nothing to lose.
    return { ...failed, ...body, data: {} };
  }
  if (!isMap(contents)) {
    diagnostics.push(
      diagnostic(
        "FRONTMATTER_NOT_MAPPING",
        "warning",
        "the leading --- block is not a YAML mapping; the whole file is read as the body",
        where(firstLine),
      ),
    );
    return failed;
  }
  let data: Record<string, unknown>;
  try {
    data = asWritten(contents, doc, aliases) as Record<string, unknown>;
  } catch (error) {
    const message = SkillctxError.isInstance(error) ? error.message : String(error);
    diagnostics.push(diagnostic("YAML_INVALID", "error", `invalid YAML in frontmatter: ${message}`, where(firstLine)));
    return failed;
  }
  for (const alias of unresolvedAliases(doc, aliases)) {
    diagnostics.push(
      diagnostic(
        "YAML_UNRESOLVED_ALIAS",
        "warning",
        `${alias.text} names no anchor; read as the text "${alias.text}" (quote it to be portable)`,
        where(toLine(alias.offset)),
      ),
    );
  }
  let keyLines: Map<string, number> | undefined;
  const keyLine = (key: string) => {
    // Built once: a lookup per key would be quadratic on a block of 50,000 keys.
    if (keyLines === undefined) {
      keyLines = new Map();
      for (const pair of contents.items) {
        if (!isPair(pair) || !isNode(pair.key) || !pair.key.range) continue;
        const name = scalarText(pair.key, doc, aliases);
        if (name !== undefined && !keyLines.has(name)) keyLines.set(name, toLine(pair.key.range[0]));
      }
    }
    return keyLines.get(key);
  };
  dropPrototypeKeys(data, diagnostics, where(firstLine));
  return { split, data, diagnostics, keyLine, typedValue: (key) => topLevelValue(parsed, key), ...body };
}

/** YAML errors as diagnostics: the first `MAX_YAML_ERRORS`, then one that counts the rest. */
function pushYamlErrors(
  errors: ReadonlyArray<{ message: string; line: number }>,
  diagnostics: Diagnostic[],
  where: (line: number | undefined) => { path: string | undefined; line: number | undefined },
  prefix = "invalid YAML in frontmatter: ",
): void {
  for (const error of errors.slice(0, MAX_YAML_ERRORS))
    diagnostics.push(diagnostic("YAML_INVALID", "error", `${prefix}${error.message}`, where(error.line)));
  const rest = errors.length - MAX_YAML_ERRORS;
  if (rest > 0) {
    const at = errors[MAX_YAML_ERRORS]!.line;
    diagnostics.push(
      diagnostic(
        "YAML_INVALID",
        "error",
        `${prefix}${rest.toLocaleString("en-US")} more YAML errors from this line on`,
        where(at),
      ),
    );
  }
}

/**
 * Removes `__proto__` keys at any depth, each with a warning: whoever merges or spreads the data
 * would otherwise change an object's prototype.
 */
function dropPrototypeKeys(
  value: unknown,
  diagnostics: Diagnostic[],
  where: { path: string | undefined; line: number | undefined },
  trail = "",
): void {
  // Stryker disable next-line ConditionalExpression: asWritten never gives null (a null value is read as the text it was written as)
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => dropPrototypeKeys(item, diagnostics, where, `${trail}[${i}]`));
    return;
  }
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, "__proto__")) {
    Reflect.deleteProperty(record, "__proto__");
    diagnostics.push(
      diagnostic(
        "FIELD_INVALID",
        "warning",
        `field ${trail === "" ? "" : `${trail}.`}__proto__ is not kept (it would change an object's prototype)`,
        where,
      ),
    );
  }
  for (const [key, item] of Object.entries(record))
    dropPrototypeKeys(item, diagnostics, where, trail === "" ? key : `${trail}.${key}`);
}

function pairOf(doc: Document, key: string, aliases: AliasTable) {
  const contents = doc.contents;
  // Stryker disable next-line ConditionalExpression: only reached for a block read as a mapping
  if (!isMap(contents)) return undefined;
  return contents.items.find((p) => isPair(p) && scalarText(p.key, doc, aliases) === key);
}

// A top-level value with YAML types; undefined when absent, or when the block is broken or over a cap.
function topLevelValue(parsed: YamlBlock, key: string): unknown {
  // Stryker disable next-line ConditionalExpression: only reached for a block read without errors
  if (parsed.errors.length > 0) return undefined;
  const node = pairOf(parsed.doc, key, parsed.aliases)?.value;
  try {
    return isNode(node) ? typedValue(node, parsed.doc, parsed.aliases) : undefined;
  } catch {
    return undefined;
  }
}

/** The first line of a yaml error message, without the position the diagnostic carries anyway. */
export function yamlMessage(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "").trim();
}

/**
 * The warning for a value strict YAML rejects that was read as a quoted string (Codex reads it so):
 * `YAML_UNQUOTED_COLON` for an unquoted `: `, `YAML_UNQUOTED_FLOW` for a broken flow-like value,
 * `YAML_KEY_NO_SPACE` for a `name:value` / `description:value` line.
 * @internal Shared with the validator, which reports the same repair.
 */
export function recoveredValue(
  q: QuotedValue,
  where: { path: string | undefined; line: number | undefined },
): Diagnostic {
  if (q.kind === "no-space")
    return diagnostic(
      "YAML_KEY_NO_SPACE",
      "warning",
      `key with no space after its ':' read as Gemini CLI reads it: ${truncate(q.value)}`,
      where,
    );
  return q.kind === "colon"
    ? diagnostic(
        "YAML_UNQUOTED_COLON",
        "warning",
        `value with an unquoted ': ' read as a quoted string: ${truncate(q.value)}`,
        where,
      )
    : diagnostic(
        "YAML_UNQUOTED_FLOW",
        "warning",
        `value that is not valid YAML (a flow collection or a reserved character) read as a quoted string: ${truncate(q.value)}`,
        where,
      );
}

function truncate(value: string): string {
  const flat = value.replace(/\s+/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
