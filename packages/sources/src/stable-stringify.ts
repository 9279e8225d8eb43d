import { compareCodePoints } from "@skillctx/core";

/**
 * JSON text whose object keys are in code-point order at every level, so that two values equal in
 * content give the same text (digests, lockfiles). Otherwise as `JSON.stringify(value, null, space)`:
 * `toJSON` applied, undefined fields and functions dropped, `undefined` in an array written as `null`.
 * Unlike an object rebuilt with sorted keys, integer-like keys ("10", "9") are sorted too.
 *
 * @returns `undefined` where `JSON.stringify` does (`undefined`, a function or a symbol at the top).
 * @throws TypeError for a cycle or a BigInt, as `JSON.stringify` does.
 * @example
 * stableStringify({ b: 1, a: [true, undefined] }) // '{"a":[true,null],"b":1}'
 */
export function stableStringify(value: unknown, space?: number): string | undefined {
  const indent = space === undefined ? "" : " ".repeat(Math.min(10, Math.max(0, Math.trunc(space))));
  return write(value, "", indent, "", new Set());
}

function write(input: unknown, key: string, indent: string, depth: string, open: Set<object>): string | undefined {
  let value = input;
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  if (typeof value === "object" && value !== null && typeof toJSON === "function")
    value = toJSON.call(value, key) as unknown;
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  // Boxed primitives and other non-plain values JSON.stringify treats specially.
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return JSON.stringify(value);
  if (open.has(value)) throw new TypeError("Converting circular structure to JSON");
  open.add(value);
  const inner = depth + indent;
  const [open1, close1, comma] = indent === "" ? ["", "", ","] : [`\n${inner}`, `\n${depth}`, `,\n${inner}`];
  let text: string;
  if (Array.isArray(value)) {
    const items = value.map((item, i) => write(item, String(i), indent, inner, open) ?? "null");
    text = items.length === 0 ? "[]" : `[${open1}${items.join(comma)}${close1}]`;
  } else {
    const colon = indent === "" ? ":" : ": ";
    const fields: string[] = [];
    const record = value as Record<string, unknown>;
    for (const name of Object.keys(record).sort(compareCodePoints)) {
      const item = write(record[name], name, indent, inner, open);
      if (item !== undefined) fields.push(`${JSON.stringify(name)}${colon}${item}`);
    }
    text = fields.length === 0 ? "{}" : `{${open1}${fields.join(comma)}${close1}}`;
  }
  open.delete(value);
  return text;
}
