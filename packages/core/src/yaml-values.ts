import { isAlias, isMap, isPair, isScalar, isSeq, visit } from "./yaml-lib.js";
import type { Alias, Document, Node } from "./yaml-lib.js";
import { SkillctxError } from "./errors.js";
import { MAX_YAML_ALIAS_EXPANSIONS, MAX_YAML_DEPTH } from "./limits.js";
import type { AliasTable } from "./yaml-document.js";

/** Caps of {@link asWritten} and {@link typedValue}. */
export interface YamlValueLimits {
  /**
   * Most values aliases may expand to (every value reached through an alias counts, nested aliases
   * included; plain values do not).
   * @default MAX_YAML_ALIAS_EXPANSIONS (10,000)
   */
  maxAliasExpansions?: number;
  /** Deepest nesting of the result (aliases included). @default MAX_YAML_DEPTH (64) */
  maxDepth?: number;
}

/**
 * The value of a YAML node with every scalar read as the author wrote it: `123`, `true`, `~` and an
 * empty value are the strings `"123"`, `"true"`, `"~"` and `""` (YAML's failsafe schema, as strictyaml
 * reads it). Maps become objects with string keys, sequences arrays; aliases are resolved (through
 * `aliases` when given: one table per document keeps resolution linear).
 * @throws SkillctxError `YAML_INVALID` when aliases expand past `maxAliasExpansions` values (an alias
 * bomb), when an alias is inside the value it names, or when the value nests deeper than `maxDepth`.
 */
export function asWritten(node: unknown, doc: Document, aliases?: AliasTable, limits: YamlValueLimits = {}): unknown {
  return convert(node, walker(doc, aliases, limits, false), 0, false);
}

/**
 * The value of a YAML node with its YAML types (numbers, booleans, null), as `yaml`'s `toJS` gives it,
 * under the same caps as {@link asWritten}. `__proto__` keys are left out; an alias that names no
 * anchor is the text `*name`.
 * @throws SkillctxError `YAML_INVALID`, as {@link asWritten}.
 */
export function typedValue(node: unknown, doc: Document, aliases?: AliasTable, limits: YamlValueLimits = {}): unknown {
  return convert(node, walker(doc, aliases, limits, true), 0, false);
}

/** The string a scalar node was written as, or undefined when `node` is not a scalar (or alias to one). */
export function scalarText(node: unknown, doc: Document, aliases?: AliasTable): string | undefined {
  const target = isAlias(node) ? resolve(node, doc, aliases) : node;
  if (isAlias(node) && target === undefined) return `*${node.source}`;
  if (isScalar(target)) return scalarSource(target);
  if (target === null || target === undefined) return "";
  return undefined;
}

/**
 * Sets an own, enumerable property, even for keys such as `__proto__` that plain assignment would
 * turn into a prototype change.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Aliases that name no anchor (`globs: *.ts`), with their offsets: read as the literal text `*name`. */
export function unresolvedAliases(doc: Document, aliases?: AliasTable): Array<{ text: string; offset: number }> {
  const found: Array<{ text: string; offset: number }> = [];
  const add = (node: Alias) => found.push({ text: `*${node.source}`, offset: node.range?.[0] ?? 0 });
  // Stryker disable next-line BlockStatement: speed only; without the table the visit below finds the same aliases in the same order
  if (aliases !== undefined) {
    // The table is in document order.
    for (const [node, target] of aliases) if (target === undefined) add(node);
    return found;
  }
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) === undefined) add(node);
    },
  });
  return found;
}

interface Walker {
  doc: Document;
  aliases: AliasTable | undefined;
  /** Values aliases may still expand to. */
  left: number;
  maxAliasExpansions: number;
  maxDepth: number;
  typed: boolean;
  /** Anchored nodes being expanded through an alias: meeting one again is a cycle. */
  expanding: Set<Node>;
}

function walker(doc: Document, aliases: AliasTable | undefined, limits: YamlValueLimits, typed: boolean): Walker {
  const maxAliasExpansions = limits.maxAliasExpansions ?? MAX_YAML_ALIAS_EXPANSIONS;
  return {
    doc,
    aliases,
    left: maxAliasExpansions,
    maxAliasExpansions,
    maxDepth: limits.maxDepth ?? MAX_YAML_DEPTH,
    typed,
    expanding: new Set(),
  };
}

function resolve(node: Alias, doc: Document, aliases: AliasTable | undefined): Node | undefined {
  // Stryker disable next-line ConditionalExpression: speed only; node.resolve finds the node the table holds (the table is built as it resolves)
  if (aliases?.has(node) === true) return aliases.get(node);
  return node.resolve(doc);
}

function scalarSource(node: { source?: unknown; value: unknown }): string {
  if (typeof node.source === "string") return node.source;
  return node.value === null || node.value === undefined ? "" : String(node.value);
}

function convert(node: unknown, w: Walker, depth: number, viaAlias: boolean): unknown {
  // Every value reached through an alias counts (the alias node itself is not a value).
  if (viaAlias && !isAlias(node) && --w.left < 0) {
    throw new SkillctxError(
      "YAML_INVALID",
      `aliases expand to more than ${w.maxAliasExpansions.toLocaleString("en-US")} values (an alias bomb); refused`,
    );
  }
  if (depth > w.maxDepth)
    throw new SkillctxError("YAML_INVALID", `values nested deeper than ${w.maxDepth} levels; refused`);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the last line of convert gives null and undefined the same value
  if (node === null || node === undefined) return w.typed ? null : "";
  if (isAlias(node)) {
    const target = resolve(node, w.doc, w.aliases);
    // `globs: *.ts` is an alias to nothing: what the author meant is the text itself.
    if (target === undefined) return `*${node.source}`;
    if (w.expanding.has(target))
      throw new SkillctxError("YAML_INVALID", `alias *${node.source} is inside the value it names; refused`);
    w.expanding.add(target);
    try {
      return convert(target, w, depth, true);
    } finally {
      w.expanding.delete(target);
    }
  }
  if (isScalar(node)) return w.typed ? node.value : scalarSource(node);
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      // Stryker disable next-line ConditionalExpression: a YAMLMap's items are pairs (its type says so); the test keeps code-placed items out
      if (!isPair(pair)) continue;
      const key = keyString(convert(pair.key, w, depth + 1, viaAlias));
      const value = convert(pair.value, w, depth + 1, viaAlias);
      if (w.typed && key === "__proto__") continue;
      setOwn(out, key, value);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => convert(item, w, depth + 1, viaAlias));
  // Not a yaml node (a value placed by code): keep it.
  // Stryker disable next-line StringLiteral: null and undefined returned above; this fallback is never reached with them
  return (node as Node | unknown) ?? (w.typed ? null : "");
}

// As `yaml`'s toJS names keys: a string as is, null as "", other scalars as text, collections as JSON.
function keyString(key: unknown): string {
  // Stryker disable next-line ConditionalExpression,StringLiteral: speed only; String() of a string is itself
  if (typeof key === "string") return key;
  if (key === null) return "";
  return typeof key === "object" ? JSON.stringify(key) : String(key);
}
