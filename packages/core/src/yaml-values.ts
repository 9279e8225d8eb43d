import { isAlias, isMap, isPair, isScalar, isSeq, visit } from "yaml";
import type { Document, Node } from "yaml";
import { SkillctxError } from "./errors.js";

// Aliases can expand exponentially ("billion laughs"); past this many nodes the block is refused.
const MAX_NODES = 10_000;

/**
 * The value of a YAML node with every scalar read as the author wrote it: `123`, `true`, `~` and an
 * empty value are the strings `"123"`, `"true"`, `"~"` and `""` (YAML's failsafe schema, as strictyaml
 * reads it). Maps become objects with string keys, sequences arrays; aliases are resolved.
 * @throws SkillctxError `YAML_INVALID` when aliases expand past 10,000 nodes.
 */
export function asWritten(node: unknown, doc: Document): unknown {
  const budget = { left: MAX_NODES };
  return convert(node, doc, budget, 0);
}

/** The string a scalar node was written as, or undefined when `node` is not a scalar (or alias to one). */
export function scalarText(node: unknown, doc: Document): string | undefined {
  if (isAlias(node) && node.resolve(doc) === undefined) return `*${node.source}`;
  const target = isAlias(node) ? node.resolve(doc) : node;
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

function scalarSource(node: { source?: unknown; value: unknown }): string {
  if (typeof node.source === "string") return node.source;
  return node.value === null || node.value === undefined ? "" : String(node.value);
}

function convert(node: unknown, doc: Document, budget: { left: number }, depth: number): unknown {
  if (--budget.left < 0 || depth > 200) {
    throw new SkillctxError("YAML_INVALID", "frontmatter expands to too many values (alias bomb or deep nesting)");
  }
  if (node === null || node === undefined) return "";
  if (isAlias(node)) {
    const target = node.resolve(doc);
    // `globs: *.ts` is an alias to nothing: what the author meant is the text itself.
    return target === undefined ? `*${node.source}` : convert(target, doc, budget, depth + 1);
  }
  if (isScalar(node)) return scalarSource(node);
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = keyString(convert(pair.key, doc, budget, depth + 1));
      setOwn(out, key, convert(pair.value, doc, budget, depth + 1));
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => convert(item, doc, budget, depth + 1));
  // Not a yaml node (a value placed by code): keep it.
  return (node as Node | unknown) ?? "";
}

/** Aliases that name no anchor (`globs: *.ts`), with their offsets: read as the literal text `*name`. */
export function unresolvedAliases(doc: Document): Array<{ text: string; offset: number }> {
  const found: Array<{ text: string; offset: number }> = [];
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) === undefined) found.push({ text: `*${node.source}`, offset: node.range?.[0] ?? 0 });
    },
  });
  return found;
}

function keyString(key: unknown): string {
  return typeof key === "string" ? key : JSON.stringify(key);
}
