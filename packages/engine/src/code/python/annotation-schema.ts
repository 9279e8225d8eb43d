/**
 * Python type annotations (as the signature reader saw them, never evaluated) → JSON Schema.
 *
 * Supported: `str`, `int`, `float`, `bool`, `None`, `Any` / `object`; `list[T]` (also `List`, `Sequence`,
 * `Iterable`, `Collection`); `dict[str, T]` (also `Dict`, `Mapping`); `tuple[A, B]` and `tuple[T, ...]`;
 * `Literal[...]` of strings, numbers, booleans and `None`; `Optional[T]`, `Union[...]` and `A | B` of
 * supported types; `Annotated[T, "description"]`; string annotations (`"int"`) of the same. Names may
 * carry a `typing.` / `typing_extensions.` / `collections.abc.` / `builtins.` prefix. Everything else
 * (custom classes, `Callable`, `set`, `bytes`, dict keys other than `str`, ...) has no JSON Schema and is
 * reported with the part that could not be expressed.
 */
import type { JsonSchema } from "../skill-code.js";
import type { AnnotationNode } from "./reader.js";

/** A JSON Schema for an annotation, or the part of it JSON Schema cannot express. */
export type AnnotationResult =
  | { schema: JsonSchema; description?: string | undefined; tuple?: boolean }
  | { unsupported: string };

const PREFIXES = ["typing.", "typing_extensions.", "collections.abc.", "builtins."];
const SCALARS: Record<string, JsonSchema> = {
  str: { type: "string" },
  int: { type: "integer" },
  float: { type: "number" },
  bool: { type: "boolean" },
  None: { type: "null" },
  NoneType: { type: "null" },
  Any: {},
  object: {},
};
const LISTS = new Set(["list", "List", "Sequence", "MutableSequence", "Iterable", "Collection"]);
const DICTS = new Set(["dict", "Dict", "Mapping", "MutableMapping"]);
const TUPLES = new Set(["tuple", "Tuple"]);

/** The JSON Schema of an annotation. `tuple` is set when the value must reach Python as a tuple. */
export function annotationSchema(node: AnnotationNode): AnnotationResult {
  switch (node.k) {
    case "name": {
      const name = plainName(node.id);
      const scalar = Object.hasOwn(SCALARS, name) ? SCALARS[name] : undefined;
      if (scalar !== undefined) return { schema: { ...scalar } };
      if (LISTS.has(name)) return { schema: { type: "array" } };
      if (DICTS.has(name)) return { schema: { type: "object" } };
      if (TUPLES.has(name)) return { schema: { type: "array" }, tuple: true };
      return { unsupported: node.id };
    }
    case "const":
      return node.v === null ? { schema: { type: "null" } } : { unsupported: JSON.stringify(node.v) };
    case "str":
      return node.parsed === undefined ? { unsupported: JSON.stringify(node.v) } : annotationSchema(node.parsed);
    case "or":
      return unionOf(node.args);
    case "sub":
      return subscript(node);
    case "ellipsis":
      return { unsupported: "..." };
    case "list":
      return { unsupported: "[...]" };
    case "other":
      if (node.why === undefined) return { unsupported: node.text };
      return { unsupported: node.text === "" ? `(${node.why})` : `${node.text} (${node.why})` };
  }
}

function subscript(node: Extract<AnnotationNode, { k: "sub" }>): AnnotationResult {
  if (node.base.k !== "name")
    return node.base.k === "other" && node.base.why !== undefined
      ? annotationSchema(node.base)
      : { unsupported: node.text };
  const name = plainName(node.base.id);
  const args = node.args;
  if (name === "Optional" && args.length === 1) return unionOf([args[0]!, { k: "const", v: null }]);
  if (name === "Union") return unionOf(args);
  if (name === "Literal") return literal(args, node.text);
  if (name === "Annotated" && args.length >= 1) {
    const inner = annotationSchema(args[0]!);
    if ("unsupported" in inner) return inner;
    const description = args.slice(1).find((arg): arg is Extract<AnnotationNode, { k: "str" }> => arg.k === "str")?.v;
    return description === undefined ? inner : { ...inner, description };
  }
  if (LISTS.has(name) && args.length === 1) {
    const items = annotationSchema(args[0]!);
    return "unsupported" in items ? items : { schema: { type: "array", items: withDescription(items) } };
  }
  if (DICTS.has(name) && args.length === 2) {
    const key = annotationSchema(args[0]!);
    if ("unsupported" in key) return key;
    if (key.schema.type !== "string" || key.schema.enum !== undefined)
      return { unsupported: `${node.text} (JSON object keys are strings: use dict[str, ...])` };
    const value = annotationSchema(args[1]!);
    return "unsupported" in value
      ? value
      : { schema: { type: "object", additionalProperties: withDescription(value) } };
  }
  if (TUPLES.has(name)) return tuple(args, node.text);
  return { unsupported: node.text };
}

function tuple(args: readonly AnnotationNode[], text: string): AnnotationResult {
  if (args.length === 2 && args[1]!.k === "ellipsis") {
    const items = annotationSchema(args[0]!);
    return "unsupported" in items ? items : { schema: { type: "array", items: withDescription(items) }, tuple: true };
  }
  // tuple[()] is the empty tuple.
  const only = args.length === 1 ? args[0] : undefined;
  const members = only?.k === "list" && only.items.length === 0 ? [] : args;
  const prefixItems: JsonSchema[] = [];
  for (const member of members) {
    if (member.k === "ellipsis") return { unsupported: text };
    const schema = annotationSchema(member);
    if ("unsupported" in schema) return schema;
    prefixItems.push(withDescription(schema));
  }
  const schema: JsonSchema = {
    type: "array",
    minItems: prefixItems.length,
    maxItems: prefixItems.length,
    items: false,
  };
  if (prefixItems.length > 0) schema.prefixItems = prefixItems;
  return { schema, tuple: true };
}

function literal(args: readonly AnnotationNode[], text: string): AnnotationResult {
  const values: (string | number | boolean | null)[] = [];
  for (const arg of args) {
    if (arg.k === "const" || arg.k === "str") values.push(arg.v);
    else return { unsupported: text };
  }
  if (values.length === 0) return { unsupported: text };
  const types = new Set(values.map(jsonType));
  const schema: JsonSchema = { enum: values };
  if (types.size === 1) schema.type = [...types][0];
  return { schema };
}

function unionOf(members: readonly AnnotationNode[]): AnnotationResult {
  const schemas: JsonSchema[] = [];
  let tupleMember = false;
  for (const member of members) {
    const result = annotationSchema(member);
    if ("unsupported" in result) return result;
    if (result.tuple === true) tupleMember = true;
    schemas.push(withDescription(result));
  }
  const union = mergeUnion(schemas);
  return tupleMember ? { schema: union, tuple: true } : { schema: union };
}

/** `A | B`: one `type` list when every member is only a type, else `anyOf`; `Any` absorbs the rest. */
export function mergeUnion(schemas: readonly JsonSchema[]): JsonSchema {
  if (schemas.some((schema) => Object.keys(schema).length === 0)) return {};
  const unique = schemas.filter(
    (schema, index) => schemas.findIndex((other) => JSON.stringify(other) === JSON.stringify(schema)) === index,
  );
  if (unique.length === 1) return { ...unique[0] };
  const typeOnly = unique.every((schema) => Object.keys(schema).length === 1 && schema.type !== undefined);
  if (typeOnly) {
    const types = unique.flatMap((schema) =>
      Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string],
    );
    return { type: [...new Set(types)] };
  }
  return { anyOf: unique };
}

/** Whether a schema lets `null` through. */
export function allowsNull(schema: JsonSchema): boolean {
  if (Object.keys(schema).length === 0) return true;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some((member) => allowsNull(member as JsonSchema));
}

function withDescription(result: { schema: JsonSchema; description?: string | undefined }): JsonSchema {
  return result.description === undefined ? result.schema : { ...result.schema, description: result.description };
}

function plainName(id: string): string {
  for (const prefix of PREFIXES) if (id.startsWith(prefix)) return id.slice(prefix.length);
  return id;
}

function jsonType(value: string | number | boolean | null): string {
  if (value === null) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}
