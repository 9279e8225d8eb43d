/**
 * Whether two JSON-like values (plain objects, arrays, primitives, byte arrays, URLs, dates) are equal in
 * content. Iterative, so a deeply nested value cannot overflow the stack, and a cyclic one ends; a key
 * whose value is undefined counts as absent.
 */
export function equalValues(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  // Pairs already compared (or being compared): a cycle compares equal where it repeats, instead of looping.
  const compared = new Map<object, Set<object>>();
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (Object.is(x, y)) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    let pairs = compared.get(x);
    if (pairs === undefined) compared.set(x, (pairs = new Set()));
    if (pairs.has(y)) continue;
    pairs.add(y);
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
      continue;
    }
    if (Array.isArray(y)) return false;
    if (ArrayBuffer.isView(x) || ArrayBuffer.isView(y)) {
      if (!ArrayBuffer.isView(x) || !ArrayBuffer.isView(y) || !equalBytes(x, y)) return false;
      continue;
    }
    if (x instanceof URL || y instanceof URL || x instanceof Date || y instanceof Date) {
      if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y) || String(x) !== String(y)) return false;
      continue;
    }
    const xs = definedKeys(x as Record<string, unknown>);
    const ys = definedKeys(y as Record<string, unknown>);
    if (xs.length !== ys.length) return false;
    for (const key of xs) {
      if (!Object.hasOwn(y, key)) return false;
      stack.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]]);
    }
  }
  return true;
}

function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

function equalBytes(x: ArrayBufferView, y: ArrayBufferView): boolean {
  if (x.byteLength !== y.byteLength) return false;
  const a = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  const b = new Uint8Array(y.buffer, y.byteOffset, y.byteLength);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
