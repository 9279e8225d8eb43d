/**
 * The one cutter of text, by unit: UTF-16 units (JavaScript's `length`, the unit of `_CHARS` caps),
 * code points, or UTF-8 bytes (the unit of `_BYTES` caps). No function cuts inside a surrogate pair
 * or a UTF-8 sequence. `head*` return a prefix; `ellipsize*` add "…" after a kept prefix; `fit*`
 * return at most the limit, "…" included.
 */

/** The mark a cut text ends with. */
export const ELLIPSIS = "…";

/** The longest prefix of `text` of at most `maxUnits` UTF-16 units that does not end inside a surrogate pair. */
export function headUtf16(text: string, maxUnits: number): string {
  const max = Math.max(0, Math.floor(maxUnits));
  if (text.length <= max) return text;
  return text.slice(0, isLeadSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max);
}

/** `text`, or when it is longer than `maxUnits` UTF-16 units, its {@link headUtf16} followed by "…". */
export function ellipsizeUtf16(text: string, maxUnits: number): string {
  return text.length <= maxUnits ? text : `${headUtf16(text, maxUnits)}${ELLIPSIS}`;
}

/** `text`, or when it is longer than `maxUnits` UTF-16 units, a head and "…" that together fit in `maxUnits`. */
export function fitUtf16(text: string, maxUnits: number): string {
  return text.length <= maxUnits ? text : `${headUtf16(text, maxUnits - 1)}${ELLIPSIS}`;
}

/** The first `maxCodePoints` code points of `text` (a lone surrogate counts as one). */
export function headCodePoints(text: string, maxCodePoints: number): string {
  const max = Math.max(0, Math.floor(maxCodePoints));
  // A string of at most `max` UTF-16 units has at most `max` code points: the common case costs nothing.
  if (text.length <= max) return text;
  let units = 0;
  let count = 0;
  while (units < text.length && count < max) {
    units += isLeadSurrogate(text.charCodeAt(units)) && isTrailSurrogate(text.charCodeAt(units + 1)) ? 2 : 1;
    count++;
  }
  return text.slice(0, units);
}

/** `text`, or when it has more than `maxCodePoints` code points, its {@link headCodePoints} followed by "…". */
export function ellipsizeCodePoints(text: string, maxCodePoints: number): string {
  const head = headCodePoints(text, maxCodePoints);
  return head.length === text.length ? text : `${head}${ELLIPSIS}`;
}

/**
 * `text`, or when it has more than `maxCodePoints` code points, its first `maxCodePoints - 1` code
 * points and "…": at most `maxCodePoints` code points in all. `trimEnd` drops white space before the "…".
 */
export function fitCodePoints(text: string, maxCodePoints: number, options: { trimEnd?: boolean } = {}): string {
  if (maxCodePoints < 1) return text === "" ? text : ELLIPSIS;
  if (text.length <= maxCodePoints) return text;
  const head = headCodePoints(text, maxCodePoints);
  if (head.length === text.length) return text;
  const kept = headCodePoints(head, maxCodePoints - 1);
  return `${options.trimEnd === true ? kept.trimEnd() : kept}${ELLIPSIS}`;
}

/**
 * The longest prefix of `text` whose UTF-8 encoding is at most `maxBytes` bytes, never ending inside
 * a character (a lone surrogate counts as the 3 bytes of U+FFFD, as `Buffer.byteLength` counts it).
 */
export function headUtf8Bytes(text: string, maxBytes: number): string {
  const max = Math.max(0, Math.floor(maxBytes));
  // Every UTF-16 unit is 1 to 3 UTF-8 bytes: short texts need no count.
  if (text.length * 3 <= max) return text;
  let bytes = 0;
  let units = 0;
  while (units < text.length) {
    const unit = text.charCodeAt(units);
    const pair = isLeadSurrogate(unit) && isTrailSurrogate(text.charCodeAt(units + 1));
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (bytes + size > max) break;
    bytes += size;
    units += pair ? 2 : 1;
  }
  return text.slice(0, units);
}

/** `text`, or when it is longer than `maxBytes` UTF-8 bytes, its {@link headUtf8Bytes} followed by "…". */
export function ellipsizeUtf8Bytes(text: string, maxBytes: number): string {
  const head = headUtf8Bytes(text, maxBytes);
  return head.length === text.length ? text : `${head}${ELLIPSIS}`;
}

/**
 * {@link headUtf8Bytes}, ending after its last line break when that break is at or past
 * `minLineShare` of the head (0: any break; 0.5: one in the second half), so a cut text keeps whole lines.
 */
export function headUtf8BytesAtLine(text: string, maxBytes: number, minLineShare = 0): string {
  const head = headUtf8Bytes(text, maxBytes);
  if (head.length === text.length) return head;
  const newline = head.lastIndexOf("\n");
  return newline >= 0 && newline + 1 >= head.length * minLineShare ? head.slice(0, newline + 1) : head;
}

function isLeadSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isTrailSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
