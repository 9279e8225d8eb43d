/**
 * The one way a frontmatter block becomes a YAML document, for the loader and the validator alike:
 * the `yaml` package's parser, with the guards hostile input needs. Its own duplicate-key check and
 * alias resolution cost O(n) per key and per alias (quadratic on 50,000 keys or aliases), so both are
 * done here in one pass; nesting deeper than the cap is refused before the parser recurses into it.
 */
import { isAlias, isMap, isScalar, visit, yaml } from "./yaml-lib.js";
import type { Alias, Document, LineCounter, Node } from "./yaml-lib.js";
import { MAX_YAML_DEPTH } from "./limits.js";
import { errorText } from "./error-text.js";

/** One problem with a block: an offset in it and a message without position. */
export interface YamlProblem {
  offset: number;
  message: string;
}

/** What each alias of a document names: its anchored node, or undefined when no anchor precedes it. */
export type AliasTable = ReadonlyMap<Alias, Node | undefined>;

/** A parsed block. */
export interface YamlBlock {
  doc: Document;
  /** Syntax errors, duplicate keys and nesting past the cap, in source order; empty when the block is good. */
  errors: YamlProblem[];
  aliases: AliasTable;
}

/** Options for {@link parseYamlBlock}. */
export interface ParseYamlBlockOptions {
  lineCounter?: LineCounter;
  /** @default MAX_YAML_DEPTH (64) */
  maxDepth?: number;
}

/**
 * Parses `block` (YAML 1.2, core schema). Duplicate keys (equal as YAML values, `1` and `0x1` alike)
 * are errors, as with `yaml`'s `uniqueKeys`; a block nested deeper than `maxDepth` is refused without
 * being parsed. Never throws.
 */
export function parseYamlBlock(block: string, options: ParseYamlBlockOptions = {}): YamlBlock {
  const maxDepth = options.maxDepth ?? MAX_YAML_DEPTH;
  const deep = tooDeep(block, maxDepth);
  if (deep !== undefined) {
    const counter = options.lineCounter;
    if (counter !== undefined) {
      // Lines for the error's offset, as the parser would have counted them.
      counter.addNewLine(0);
      for (let i = block.indexOf("\n"); i !== -1; i = block.indexOf("\n", i + 1)) counter.addNewLine(i + 1);
    }
    const doc = yaml().parseDocument("");
    return {
      doc,
      errors: [{ offset: deep, message: `collections nested deeper than ${maxDepth} levels; refused` }],
      aliases: new Map(),
    };
  }
  const doc = yaml().parseDocument(block, {
    lineCounter: options.lineCounter,
    prettyErrors: false,
    uniqueKeys: false,
    keepSourceTokens: false,
  });
  const errors: YamlProblem[] = doc.errors.map((e) => ({
    offset: e.pos[0],
    // `yaml` catches its own stack overflow and reports it as an error at that position.
    message: /maximum call stack/i.test(e.message) ? "collections nested too deeply to read" : e.message,
  }));
  const aliases = new Map<Alias, Node | undefined>();
  const latest = new Map<string, Node>();
  try {
    visit(doc, {
      Node(_key, node) {
        if (isAlias(node)) {
          // As `Alias.resolve` does: the last node with that anchor before the alias, in document order.
          aliases.set(node, latest.get(node.source));
          return;
        }
        // Stryker disable next-line ConditionalExpression: an undefined key is never looked up (an alias's source is a string)
        if (node.anchor !== undefined) latest.set(node.anchor, node);
        if (isMap(node)) duplicateKeys(node.items, errors);
      },
    });
  } catch (error) {
    errors.push({ offset: 0, message: `cannot be read: ${errorText(error)}` });
  }
  // yaml's own errors are not always in source order (`\t}'*x,` gives 1, 0, 6); the sort is stable.
  errors.sort((a, b) => a.offset - b.offset);
  return { doc, errors, aliases };
}

// `yaml`'s uniqueKeys test (`a === b`, or scalars with `===` values), in O(n) with a set of values.
function duplicateKeys(items: ReadonlyArray<{ key: unknown }>, errors: YamlProblem[]): void {
  // Stryker disable next-line ConditionalExpression: speed only; with fewer than two keys the loop finds no duplicate
  if (items.length < 2) return;
  const seen = new Set<unknown>();
  for (const { key } of items) {
    const value: unknown = isScalar(key) ? key.value : key;
    // NaN is never === itself, so `.nan` keys are never duplicates.
    // Stryker disable next-line ConditionalExpression: Number.isNaN is false for anything but a number NaN
    if (typeof value === "number" && Number.isNaN(value)) continue;
    if (seen.has(value)) {
      // Stryker disable next-line ConditionalExpression,OptionalChaining: only a scalar key can equal an earlier one (collections and aliases are distinct objects), and yaml gives every node it composes a range
      const offset = isScalar(key) || isAlias(key) ? (key.range?.[0] ?? 0) : 0;
      errors.push({ offset, message: "Map keys must be unique" });
    } else seen.add(value);
  }
}

/**
 * The offset where `block` nests collections deeper than `max` (flow `[[[` / `{{{`, or compact
 * `- - -` / `? ? ?` on one line), or undefined. A cheap character test decides whether the exact
 * count (the `yaml` lexer, iterative and several times faster than the parser) is needed at all.
 * Deep nesting through indentation needs a quadratic number of spaces, which the size cap bounds.
 */
export function tooDeep(block: string, max: number): number | undefined {
  let brackets = 0;
  // The two loops are a pre-check: counting more only sends the block to the exact count below (a slowdown).
  // Stryker disable next-line StringLiteral: `indexOf("")` counts every character
  for (let i = block.indexOf("["); i !== -1 && brackets < max; i = block.indexOf("[", i + 1)) brackets++;
  // Stryker disable next-line StringLiteral,ArithmeticOperator: `indexOf("")` counts every character, `i - 1` the same bracket again
  for (let i = block.indexOf("{"); i !== -1 && brackets < max; i = block.indexOf("{", i + 1)) brackets++;
  // Stryker disable next-line ConditionalExpression: never returning early only runs the exact count (a slowdown)
  if (brackets < max && !compactRun(max).test(block)) return undefined;
  let offset = 0;
  let flow = 0;
  let compact = 0;
  const { CST, Lexer } = yaml();
  for (const token of new Lexer().lex(block)) {
    const type = CST.tokenType(token);
    switch (type) {
      case "flow-seq-start":
      case "flow-map-start":
        if (++flow > max) return offset;
        break;
      case "flow-seq-end":
      case "flow-map-end":
        if (flow > 0) flow--;
        break;
      case "seq-item-ind":
      case "explicit-key-ind":
        if (flow === 0 && ++compact > max) return offset;
        break;
      case "newline":
        compact = 0;
        break;
      default:
    }
    // The lexer's markers for document, scalar and flow-end are not source text.
    if (type !== "doc-mode" && type !== "scalar" && type !== "flow-error-end") offset += token.length;
  }
  return undefined;
}

const compactRuns = new Map<number, RegExp>();
/** `max` compact indicators in a row (`- - - ...`); the two classes are disjoint, so no backtracking. */
function compactRun(max: number): RegExp {
  let re = compactRuns.get(max);
  // Stryker disable next-line ConditionalExpression,StringLiteral,MethodExpression: a cache, and a pre-check: a pattern that matches more blocks only sends them to the exact count in tooDeep
  if (re === undefined) compactRuns.set(max, (re = new RegExp(`(?:[-?][ \\t]+){${Math.max(1, max)}}`)));
  return re;
}
