/**
 * Compares two strings by Unicode code point, the order skillctx uses everywhere
 * (never `localeCompare`, never file-system order). Equal to `a < b` except that a
 * character outside the BMP (a surrogate pair) sorts after U+E000..U+FFFF, as its code point says.
 *
 * @example
 * ["b", "a", "é", "Z", "B"].sort(compareCodePoints) // ["B", "Z", "a", "b", "é"]
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A lead or trail surrogate (U+D800..U+DFFF) stands for a code point above U+FFFF.
    return rank(x) - rank(y);
  }
  return a.length - b.length;
}

function rank(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}
