import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { isMap, isNode, isPair, newLineCounter } from "./yaml-lib.js";
import type { Document } from "./yaml-lib.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic, Severity } from "./diagnostics.js";
import type { Dialect } from "./dialect-fields.js";
import { CODEX_SKILL_YAML, readCodexSkillMetadataSync } from "./codex-skill-metadata.js";
import { splitFrontmatter } from "./frontmatter-split.js";
import { SkillctxError } from "./errors.js";
import { readTextFile } from "./fs/read-text-file.js";
import { MAX_FRONTMATTER_CHARS, MAX_SKILL_FILE_BYTES, MAX_SUGGESTIONS, MAX_YAML_ERRORS } from "./limits.js";
import { dialectField, suggestField } from "./dialect-fields.js";
import { checkDialectTypes, codexYamlFindings, DIALECT_NAMES } from "./dialect-rules.js";
import {
  ALLOWED_FIELDS,
  checkCompatibility,
  checkDescription,
  checkFields,
  checkName,
  checkSoftTypes,
} from "./spec-rules.js";
import type { RuleFinding } from "./spec-rules.js";
import { parseYamlBlock } from "./yaml-document.js";
import { countNewlines } from "./count-newlines.js";
import { quoteColonValues } from "./colon-retry.js";
import { recoveredValue, yamlMessage } from "./frontmatter.js";
import type { AliasTable } from "./yaml-document.js";
import { strictFindings } from "./yaml-strict.js";
import { asWritten, scalarText } from "./yaml-values.js";
import { checkDescriptionReach } from "./search/description-reach.js";
import { isSkillMdVariant } from "./walk-skill-dirs.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";
import { asListReadsIt } from "./validate-lenient.js";

/** Options for {@link validateSkill}. */
export interface ValidateSkillOptions {
  /**
   * Match the reference validator exactly: YAML that strictyaml refuses (flow collections, anchors,
   * aliases, tags, unevenly indented sibling mappings) is `YAML_INVALID` (error) instead of a warning.
   * @default false
   */
  strict?: boolean;
  /**
   * Containment: a SKILL.md whose real path leaves this folder's real path is not read
   * (`PATH_OUTSIDE_ROOT`). @default none (symlinks are followed; pass the project root for repository content)
   */
  root?: string;
  /** Largest SKILL.md read, in bytes; a larger one is `TOO_LARGE`. @default MAX_SKILL_FILE_BYTES (4 MiB) */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** Options for {@link validateSkillMd}. */
export interface ValidateSkillMdOptions {
  /** @default false — see {@link ValidateSkillOptions.strict} */
  strict?: boolean;
  /**
   * Longest frontmatter read, in UTF-16 units; a longer one is `FRONTMATTER_TOO_LARGE` (error), since the
   * loader would not read it either.
   * @default MAX_FRONTMATTER_CHARS (262,144)
   */
  maxFrontmatterChars?: number;
  /** The file, copied into diagnostics. */
  path?: string;
  /** The skill folder's name, checked against `name`; undefined skips that check. */
  dirName?: string;
}

/** A verdict: `valid` is true when no diagnostic is an error. */
export interface ValidationResult {
  valid: boolean;
  diagnostics: Diagnostic[];
}

/**
 * Validates a skill folder against the Agent Skills specification. With `strict`, the verdicts of its
 * reference validator (skills-ref), judging the file as written (a BOM or a blank first line is
 * `FRONTMATTER_MISSING`; the loader's tolerances never apply). Without it, list's verdict: what the loader
 * reads with a warning (no name, a name that is not the spec's or not its folder's, fields the spec does
 * not list, the Codex repair of a value strict YAML rejects, a BOM or blank lines before the fence) is a
 * warning, and only what the loader refuses, reports as an error or silently misreads fails.
 * Reports every finding, not just the first.
 * @example const { valid, diagnostics } = await validateSkill("skills/pdf", { strict: true });
 */
export async function validateSkill(dir: string, options: ValidateSkillOptions = {}): Promise<ValidationResult> {
  options.signal?.throwIfAborted();
  const fail = (code: DiagnosticCode, message: string, where: string): ValidationResult => ({
    valid: false,
    diagnostics: [diagnostic(code, "error", message, { path: where })],
  });
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) return fail("PATH_NOT_FOUND", `Path does not exist: ${dir}`, dir);
  if (!info.isDirectory()) return fail("NOT_A_DIRECTORY", `Not a directory: ${dir}`, dir);
  const file = await skillFileOf(dir);
  if (file === undefined) return fail("MISSING_SKILL_MD", "Missing required file: SKILL.md", dir);
  // The one reader of repository content: regular files only, size cap, strict UTF-8 (a BOM is kept, as
  // Python's read_text keeps it, so that a BOM is FRONTMATTER_MISSING as the reference says).
  const read = await readTextFile(file, {
    maxBytes: options.maxBytes ?? MAX_SKILL_FILE_BYTES,
    root: options.root,
    signal: options.signal,
  });
  if (!read.ok) {
    if (read.code === "NOT_UTF8") return fail("ENCODING_INVALID", "SKILL.md is not valid UTF-8", file);
    if (read.code === "BINARY") return fail("ENCODING_INVALID", "SKILL.md contains NUL bytes (not a text file)", file);
    return fail(read.code, read.message, file);
  }
  const text = read.text;
  const dirName = path.basename(path.resolve(dir));
  const result = validateSkillMd(text, { strict: options.strict ?? false, path: file, dirName });
  const codex = validateCodexYaml(dir, options);
  if (codex.length === 0) return result;
  const diagnostics = [...result.diagnostics, ...codex];
  return { valid: !diagnostics.some((d) => d.severity === "error"), diagnostics };
}

/**
 * The folder's skill file: `SKILL.md`, `skill.md`, then another case (`skill.MD`), which list reads as
 * OpenHands' find_skill_md does, so the validator checks it too (walk-skill-dirs' `isSkillMdVariant`).
 */
async function skillFileOf(dir: string): Promise<string | undefined> {
  const variants = (await readdir(dir).catch(() => [] as string[])).filter(isSkillMdVariant).sort();
  for (const name of ["SKILL.md", "skill.md", ...variants]) {
    const candidate = path.join(dir, name);
    if ((await stat(candidate).catch(() => undefined))?.isFile() === true) return candidate;
  }
  return undefined;
}

/**
 * The findings about a skill's Codex `agents/openai.yaml` (none when it has none): notes naming each
 * Codex field; without `strict`, also wrong types (errors), unknown keys and unreadable files (warnings).
 */
function validateCodexYaml(dir: string, options: ValidateSkillOptions): Diagnostic[] {
  const strict = options.strict ?? false;
  const read = readCodexSkillMetadataSync(dir, { root: options.root });
  if (!read.found) return [];
  const file = path.join(dir, CODEX_SKILL_YAML);
  if (read.metadata === undefined)
    return strict ? [] : read.diagnostics.map((d) => ({ ...d, dialect: "codex" as const }));
  const out: Diagnostic[] = strict
    ? []
    : read.metadata.diagnostics
        .filter((d) => d.code === "YAML_INVALID")
        .map((d) => ({ ...d, dialect: "codex" as const }));
  for (const f of codexYamlFindings(read.metadata, strict)) {
    out.push({ ...diagnostic(f.code, f.severity, f.message, { path: file, line: f.line }), dialect: f.dialect });
  }
  return out;
}

/** {@link validateSkill} on the text of a SKILL.md, without touching the file system. */
export function validateSkillMd(text: string, options: ValidateSkillMdOptions = {}): ValidationResult {
  const strict = options.strict ?? false;
  const diagnostics: Diagnostic[] = [];
  // One finding; a dialect's own rule (Claude Code, Codex, OpenHands) names it.
  const add = (code: DiagnosticCode, severity: Severity, message: string, line?: number, dialect?: Dialect) =>
    diagnostics.push(diagnostic(code, severity, message, { path: options.path, line, dialect }));
  // Lines cut before the opening fence (lenient mode only): findings after that are moved down by as many.
  let lineShift = 0;
  let shiftFrom = 0;
  const done = (): ValidationResult => {
    for (let i = shiftFrom; lineShift > 0 && i < diagnostics.length; i++) {
      const d = diagnostics[i]!;
      if (d.line !== undefined) diagnostics[i] = { ...d, line: d.line + lineShift };
    }
    if (!strict) for (let i = 0; i < diagnostics.length; i++) diagnostics[i] = asListReadsIt(diagnostics[i]!);
    return {
      valid: !diagnostics.some((d) => d.severity === "error"),
      // In file order (Array.prototype.sort is stable: same-line findings keep rule order).
      diagnostics: diagnostics.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
    };
  };

  // Python's read_text() turns CRLF and CR into LF and keeps a BOM.
  let content = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  if (!content.startsWith("---")) {
    add("FRONTMATTER_MISSING", "error", "SKILL.md must start with YAML frontmatter (---) on its first line", 1);
    // The loader skips a BOM and blank lines before the fence; without --strict the validator reads on.
    const lead = strict ? null : /^\uFEFF?(?:[ \t]*\n)*(?=---)/.exec(content);
    if (lead === null) return done();
    content = content.slice(lead[0].length);
    lineShift = countNewlines(lead[0]);
    shiftFrom = diagnostics.length;
  }
  // The reference cuts at the next '---' anywhere (content.split("---", 2)).
  const close = content.indexOf("---", 3);
  if (close === -1) {
    add("FRONTMATTER_UNCLOSED", "error", "SKILL.md frontmatter not properly closed with ---", 1);
    return done();
  }
  // skillctx does not read a larger block (the loader refuses it too), whatever the reference would do.
  const maxChars = options.maxFrontmatterChars ?? MAX_FRONTMATTER_CHARS;
  if (close - 3 > maxChars) {
    add(
      "FRONTMATTER_TOO_LARGE",
      "error",
      `frontmatter is longer than ${maxChars.toLocaleString("en-US")} characters; not read`,
      1,
    );
    return done();
  }
  const lineAt = lineIndex(content, close + 3);
  let block = content.slice(3, close);
  // File line of an offset in the block (its first line is the rest of the fence line: file line 1).
  let blockLines = lineIndex(block, block.length);
  const fileLine = (offset: number) => blockLines(offset);
  // Where a loader that reads fences as lines would cut; warn when the reference cuts elsewhere.
  const lines = splitFrontmatter(content, { maxFrontmatterChars: maxChars });
  const agrees =
    /^---[ \t]*\n/.test(content) &&
    lines.frontmatter !== undefined &&
    content[close - 1] === "\n" &&
    lineAt(close) === lines.bodyLine - 1;
  if (!agrees) {
    add(
      "FRONTMATTER_CLOSED_EARLY",
      "warning",
      `the reference validator ends the frontmatter at the '---' on line ${lineAt(close)}, which is not a closing fence line of its own`,
      lineAt(close),
    );
  }

  let parsed = parseYamlBlock(block, { lineCounter: newLineCounter() });
  if (parsed.errors.length > 0 && !strict) {
    // The loader's repair (Codex's): kept only when the whole block then parses; each repair is a warning.
    const retry = quoteColonValues(block, { flowLike: true });
    const retried = retry === undefined ? undefined : parseYamlBlock(retry.text, { lineCounter: newLineCounter() });
    if (retry !== undefined && retried !== undefined && retried.errors.length === 0) {
      for (const q of retry.quoted) diagnostics.push(recoveredValue(q, { path: options.path, line: 1 + q.line }));
      block = retry.text;
      blockLines = lineIndex(block, block.length);
      parsed = retried;
    }
  }
  const { doc, errors, aliases } = parsed;
  if (errors.length > 0) {
    for (const e of errors.slice(0, MAX_YAML_ERRORS))
      add("YAML_INVALID", "error", `Invalid YAML in frontmatter: ${yamlMessage(e.message)}`, fileLine(e.offset));
    if (errors.length > MAX_YAML_ERRORS) {
      const rest = (errors.length - MAX_YAML_ERRORS).toLocaleString("en-US");
      add(
        "YAML_INVALID",
        "error",
        `Invalid YAML in frontmatter: ${rest} more YAML errors from this line on`,
        fileLine(errors[MAX_YAML_ERRORS]!.offset),
      );
    }
    return done();
  }
  for (const f of strictFindings(doc, block, aliases)) {
    const severity = f.kind === "duplicate" || strict ? "error" : "warning";
    const note = f.kind === "portability" && !strict ? " — the reference validator rejects this (--strict)" : "";
    add("YAML_INVALID", severity, `Invalid YAML in frontmatter: ${f.message}${note}`, fileLine(f.offset));
  }
  const contents = doc.contents;
  if (!isMap(contents)) {
    add(
      "FRONTMATTER_NOT_MAPPING",
      "error",
      "SKILL.md frontmatter must be a YAML mapping",
      fileLine(isNode(contents) ? (contents.range?.[0] ?? 0) : 0),
    );
    return done();
  }
  let data: Record<string, unknown>;
  try {
    data = asWritten(contents, doc, aliases) as Record<string, unknown>;
  } catch (error) {
    add(
      "YAML_INVALID",
      "error",
      `Invalid YAML in frontmatter: ${SkillctxError.isInstance(error) ? error.message : String(error)}`,
      1,
    );
    return done();
  }
  const keyLine = keyLines(doc, fileLine, aliases);
  const report = (findings: RuleFinding[], severity: "error" | "warning", key: string | undefined) => {
    for (const f of findings) add(f.code, severity, f.message, key === undefined ? 1 : keyLine(key));
  };
  const keys = Object.keys(data);
  if (strict)
    report(
      checkFields(keys),
      "error",
      keys.find((k) => checkFields([k]).length > 0),
    );
  else {
    // Dialect fields are accepted (a note names the dialect, types are checked); the others are errors,
    // a near miss of a known field with a suggestion.
    const unknown: string[] = [];
    let looked = 0;
    for (const key of keys) {
      if (ALLOWED_FIELDS.includes(key) || dialectField(key) !== undefined) continue;
      // Suggestions for the first MAX_SUGGESTIONS unknown keys: a flood of keys costs no more than that.
      const near = looked++ < MAX_SUGGESTIONS ? suggestField(key) : undefined;
      if (near === undefined) unknown.push(key);
      else add("FIELD_MISSPELLED", "error", `Unknown field '${key}': did you mean '${near}'?`, keyLine(key));
    }
    if (unknown.length > 0) report(checkFields(unknown), "error", unknown[0]);
    for (const f of checkDialectTypes(data)) add(f.code, f.severity, f.message, keyLine(f.key), f.dialect);
  }
  for (const key of keys) {
    const field = dialectField(key);
    if (field === undefined) continue;
    const accepted = strict ? "the reference validator rejects it" : "accepted";
    add(
      "DIALECT_FIELD",
      "info",
      `'${key}' is a ${DIALECT_NAMES[field.dialect]} field (${field.meaning}); ${accepted}`,
      keyLine(key),
      field.dialect,
    );
  }
  if (!("name" in data))
    report([{ code: "NAME_MISSING", message: "Missing required field in frontmatter: name" }], "error", undefined);
  else report(checkName(data.name, options.dirName), "error", "name");
  if (!("description" in data)) {
    report(
      [{ code: "DESCRIPTION_MISSING", message: "Missing required field in frontmatter: description" }],
      "error",
      undefined,
    );
  } else report(checkDescription(data.description), "error", "description");
  if (!strict) report(checkDescriptionReach(data.name, data.description), "warning", "description");
  if ("compatibility" in data) report(checkCompatibility(data.compatibility), "error", "compatibility");
  for (const f of checkSoftTypes(data)) {
    const key = f.code.startsWith("METADATA") ? "metadata" : f.code.startsWith("LICENSE") ? "license" : "allowed-tools";
    report([f], "warning", key);
  }
  return done();
}

/** File line (1-based) of an offset in `text` before `end` (lines are indexed up to there only). */
function lineIndex(text: string, end: number): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

function keyLines(doc: Document, fileLine: (offset: number) => number, aliases: AliasTable): (key: string) => number {
  const lines = new Map<string, number>();
  const contents = doc.contents;
  if (isMap(contents)) {
    for (const pair of contents.items) {
      if (!isPair(pair) || !isNode(pair.key)) continue;
      const key = scalarText(pair.key, doc, aliases);
      if (key !== undefined && !lines.has(key)) lines.set(key, fileLine(pair.key.range?.[0] ?? 0));
    }
  }
  return (key) => lines.get(key) ?? 1;
}
