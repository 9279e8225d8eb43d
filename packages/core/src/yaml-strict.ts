/**
 * The YAML that the reference validator (skills-ref, which reads frontmatter with strictyaml) refuses
 * although YAML allows it: flow collections (`[a, b]`, `{a: b}`), anchors and aliases, explicit tags,
 * complex keys, sibling mapping values indented differently, tabs outside quoted text, block scalars and
 * comments (its ruamel scanner only skips spaces), and keys that are equal once read as written (`1` and
 * `"1"`). The `yaml` package accepts all of these.
 */
import { isAlias, isCollection, isMap, isNode, isPair, isScalar, visit } from "./yaml-lib.js";
import type { Document } from "./yaml-lib.js";
import type { AliasTable } from "./yaml-document.js";
import { scalarText } from "./yaml-values.js";

/** One construct strictyaml refuses. */
export interface StrictFinding {
  /** `portability` for what YAML allows; `duplicate` for keys equal once read as written. */
  kind: "portability" | "duplicate";
  message: string;
  /** Offset in the parsed block. */
  offset: number;
}

/**
 * Every construct of `doc` (parsed from `source`) that strictyaml refuses, in document order. Linear in
 * the size of the block (`aliases`, the document's alias table, keeps key resolution linear too).
 */
export function strictFindings(doc: Document, source: string, aliases?: AliasTable): StrictFinding[] {
  const found: StrictFinding[] = [];
  const add = (kind: StrictFinding["kind"], message: string, offset: number | undefined) =>
    found.push({ kind, message, offset: offset ?? 0 });
  visit(doc, (_key, node) => {
    if (isPair(node) || !isNode(node)) return;
    if (isAlias(node)) {
      add("portability", `alias *${node.source} (strictyaml refuses anchors and aliases)`, node.range?.[0]);
      return;
    }
    if (node.anchor !== undefined)
      add("portability", `anchor &${node.anchor} (strictyaml refuses anchors and aliases)`, node.range?.[0]);
    if (node.tag !== undefined)
      add("portability", `tag ${node.tag} (strictyaml refuses explicit tags)`, node.range?.[0]);
    if (isCollection(node) && node.flow === true) {
      const what = isMap(node) ? "flow mapping {...}" : "flow sequence [...]";
      add(
        "portability",
        `${what} (strictyaml refuses flow style; use block style or quote the value)`,
        node.range?.[0],
      );
    }
    if (!isMap(node)) return;
    const seen = new Set<string>();
    let column: number | undefined;
    for (const pair of node.items) {
      const key = isScalar(pair.key) || isAlias(pair.key) ? scalarText(pair.key, doc, aliases) : undefined;
      const keyOffset = isNode(pair.key) ? pair.key.range?.[0] : undefined;
      if (key === undefined && pair.key !== null) {
        add("portability", "complex mapping key (strictyaml reads keys as strings only)", keyOffset);
      } else if (key !== undefined) {
        if (seen.has(key)) add("duplicate", `duplicate key '${key}'`, keyOffset);
        seen.add(key);
      }
      // strictyaml: sibling values that are block mappings must start at the same column.
      const value = pair.value;
      if (!isMap(value) || value.flow === true) continue;
      const first = value.items[0];
      const offset = isNode(first?.key) ? first.key.range?.[0] : value.range?.[0];
      if (offset === undefined) continue;
      const col = offset - (source.lastIndexOf("\n", offset - 1) + 1);
      if (column === undefined) column = col;
      else if (col !== column)
        add("portability", "mapping indented differently from the previous mapping (strictyaml refuses this)", offset);
    }
  });
  for (const offset of strayTabs(doc, source)) {
    add("portability", "tab character outside quoted text (strictyaml only accepts spaces there)", offset);
  }
  return found.sort((a, b) => a.offset - b.offset);
}

/** Offsets of tabs that are not inside a quoted scalar, the text of a block scalar, or a comment. */
function strayTabs(doc: Document, source: string): number[] {
  // Stryker disable next-line ConditionalExpression,StringLiteral: speed only; without a tab the loop below finds none
  if (!source.includes("\t")) return [];
  // One mark per character of the block (scalar ranges do not overlap): O(n), however many scalars.
  const QUOTED = 1;
  const BLOCK = 2;
  const marks = new Uint8Array(source.length);
  visit(doc, (_key, node) => {
    if (!isScalar(node) || node.range === undefined || node.range === null) return;
    const [start, end] = node.range;
    const mark =
      node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE"
        ? QUOTED
        : node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED"
          ? BLOCK
          : 0;
    // Stryker disable next-line ConditionalExpression: filling 0 over a plain scalar changes nothing (scalar ranges do not overlap)
    if (mark !== 0) marks.fill(mark, Math.max(0, start), Math.min(source.length, end));
  });
  const tabs: number[] = [];
  let lineStart = 0;
  // Whether the current line holds anything but tabs before the current character.
  // Stryker disable next-line BooleanLiteral: on the first line a block scalar's text follows its `|` or `>`, a character that sets it anyway
  let textBefore = false;
  let comment = false;
  // Stryker disable next-line EqualityOperator: one more step reads `undefined`, which is no tab
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\n") {
      lineStart = i + 1;
      textBefore = false;
      comment = false;
      continue;
    }
    const mark = marks[i];
    if (comment || mark === QUOTED) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BooleanLiteral: textBefore is read for a tab in block scalar text only, which never follows a comment or quoted text on its line without a `:`, `-` or `?` between them
      if (c !== "\t") textBefore = true;
      continue;
    }
    if (c === "#" && (i === lineStart || source[i - 1] === " " || source[i - 1] === "\t") && mark !== BLOCK) {
      comment = true;
      // Stryker disable next-line BooleanLiteral: the rest of the line is the comment, which never reads textBefore
      textBefore = true;
      continue;
    }
    if (c !== "\t") {
      textBefore = true;
      continue;
    }
    // In a block scalar, a tab is text once the line's indentation is over.
    if (mark === BLOCK && textBefore) continue;
    tabs.push(i);
  }
  return tabs;
}
