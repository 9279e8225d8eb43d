/**
 * The `yaml` package, loaded on first use. Importing `@skillctx/core` does not load it: simple frontmatter
 * (what nearly every SKILL.md has) is read by the fast path (`frontmatter-fast.ts`), and only a block that
 * path gives up on, a typed value, or the validator loads the full parser (about 30–45 ms in a cold process).
 *
 * `yaml`'s Node build is CommonJS (its `node` export), so `require` returns the very module instance an
 * `import "yaml"` elsewhere in the process gets: nodes made by one pass the other's `isMap`.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

/** yaml's node and document types: every other module takes them from here (types only, nothing loads). */
export type { Alias, Document, LineCounter, Node } from "yaml";

let lib: typeof Yaml | undefined;

/** The `yaml` module, required on the first call. */
export function yaml(): typeof Yaml {
  lib ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return lib;
}

// yaml's node tests. A node exists only once the package is loaded, so these cost one check after that.
export const isAlias = ((node: unknown) => yaml().isAlias(node)) as typeof Yaml.isAlias;
export const isCollection = ((node: unknown) => yaml().isCollection(node)) as typeof Yaml.isCollection;
export const isMap = ((node: unknown) => yaml().isMap(node)) as typeof Yaml.isMap;
export const isNode = ((node: unknown) => yaml().isNode(node)) as typeof Yaml.isNode;
export const isPair = ((node: unknown) => yaml().isPair(node)) as typeof Yaml.isPair;
export const isScalar = ((node: unknown) => yaml().isScalar(node)) as typeof Yaml.isScalar;
export const isSeq = ((node: unknown) => yaml().isSeq(node)) as typeof Yaml.isSeq;

/** `yaml`'s `visit`. */
export function visit(node: Yaml.Node | Yaml.Document, visitor: Yaml.visitor): void {
  yaml().visit(node, visitor);
}

/** A new `yaml` `LineCounter` (offsets to lines), for `parseYamlBlock`. */
export function newLineCounter(): Yaml.LineCounter {
  return new (yaml().LineCounter)();
}
