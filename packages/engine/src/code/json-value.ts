import { ellipsizeUtf16, errorText, headUtf16 } from "@skillctx/core/internal";
/**
 * What a code tool hands back to skillctx — its return value and its skill's state — must be plain
 * JSON: the result goes to the model as text and the state lives in `ctx.state`, which resumes from
 * its JSON form. Checked here, without recursion (a deeply nested value cannot overflow the stack).
 */

/** Deepest nesting of arrays and objects accepted. */
export const MAX_JSON_DEPTH = 512;
/** Characters of a value's path shown in a reason (the end of it). */
const MAX_PATH_CHARS = 120;

/**
 * Why `value` is not plain JSON, or undefined when it is: a cycle, a BigInt, a function or symbol, a
 * number that is not finite, an object that is not a plain object or array (a Date, a Map, a class
 * instance), a getter that throws, or nesting deeper than {@link MAX_JSON_DEPTH}. Object properties
 * whose value is `undefined` are allowed (JSON leaves them out); array items may not be `undefined`.
 */
export function jsonIssue(value: unknown): string | undefined {
  // Depth-first with an explicit stack; `onPath` holds the containers between the root and the item.
  const onPath = new Set<object>();
  const stack: { value: unknown; path: string; depth: number; leave?: object }[] = [{ value, path: "", depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.leave !== undefined) {
      onPath.delete(item.leave);
      continue;
    }
    const at =
      item.path === ""
        ? "the value"
        : item.path.length > MAX_PATH_CHARS
          ? `…${item.path.slice(-MAX_PATH_CHARS)}`
          : item.path;
    const v = item.value;
    switch (typeof v) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(v)) return `${at} is ${String(v)}, which JSON cannot hold`;
        continue;
      case "bigint":
        return `${at} is a BigInt, which JSON cannot hold`;
      case "function":
        return `${at} is a function`;
      case "symbol":
        return `${at} is a symbol`;
      case "undefined":
        return `${at} is undefined`;
    }
    if (v === null) continue;
    const object = v as object;
    if (onPath.has(object)) return `${at} refers back to a value that contains it (a cycle)`;
    if (item.depth >= MAX_JSON_DEPTH) return `the value nests deeper than ${MAX_JSON_DEPTH} levels`;
    const isArray = Array.isArray(object);
    if (!isArray) {
      const proto: unknown = Object.getPrototypeOf(object);
      if (proto !== Object.prototype && proto !== null)
        return `${at} is a ${constructorName(object)}, not a plain object`;
    }
    onPath.add(object);
    stack.push({ value: undefined, path: item.path, depth: item.depth, leave: object });
    let entries: [string, unknown][];
    try {
      entries = isArray ? (object as unknown[]).map((inner, i) => [String(i), inner]) : Object.entries(object);
    } catch (error) {
      return `${at} could not be read: ${errorText(error)}`;
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i]!;
      if (!isArray && inner === undefined) continue;
      stack.push({
        value: inner,
        path: isArray ? `${item.path}[${key}]` : `${item.path}${item.path === "" ? "" : "."}${shortKey(key)}`,
        depth: item.depth + 1,
      });
    }
  }
  return undefined;
}

/**
 * `value` as JSON text when it is plain JSON (see {@link jsonIssue}), else why not. `undefined`
 * properties are left out, as `JSON.stringify` does.
 */
export function toJsonText(value: unknown): { ok: true; text: string } | { ok: false; reason: string } {
  const issue = jsonIssue(value);
  if (issue !== undefined) return { ok: false, reason: issue };
  try {
    return { ok: true, text: JSON.stringify(value) };
  } catch (error) {
    return { ok: false, reason: errorText(error) };
  }
}

function constructorName(object: object): string {
  try {
    const name: unknown = (object as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name !== "" ? headUtf16(name, 100) : "object with a prototype";
  } catch {
    return "object with a prototype";
  }
}

function shortKey(key: string): string {
  return ellipsizeUtf16(key, 100);
}
