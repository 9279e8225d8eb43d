const NEWLINE = 0x0a;

/** Strict UTF-8 decoding of repository text: a NUL byte means binary, an invalid sequence is refused. */
export type Decoded = { ok: true; text: string } | { ok: false; code: "BINARY" | "NOT_UTF8"; line?: number };

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes `bytes` as UTF-8, keeping a BOM; NUL → BINARY, invalid → NOT_UTF8 with the line of the first bad byte. */
export function decodeStrict(bytes: Uint8Array): Decoded {
  if (bytes.indexOf(0) !== -1) return { ok: false, code: "BINARY" };
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8(bytes);
    return offset === undefined
      ? { ok: false, code: "NOT_UTF8" }
      : { ok: false, code: "NOT_UTF8", line: lineAt(bytes, offset) };
  }
}

/** The length of the longest prefix of `bytes[0..length)` that does not end inside a UTF-8 sequence. */
export function wholeCodePoints(bytes: Uint8Array, length: number): number {
  if (length <= 0) return 0;
  // Step back over at most three continuation bytes to the lead byte of the last sequence.
  let lead = length - 1;
  while (lead > 0 && lead > length - 4 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  const first = bytes[lead] ?? 0;
  const size = first < 0x80 ? 1 : first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + size > length ? lead : length;
}

// The byte offset where decoding first fails, found by decoding line by line (linear).
function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  let start = 0;
  while (start < bytes.length) {
    const next = bytes.indexOf(NEWLINE, start);
    const end = next < 0 ? bytes.length : next + 1;
    try {
      strict.decode(bytes.subarray(start, end));
    } catch {
      return start;
    }
    start = end;
  }
  return undefined;
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let at = bytes.indexOf(NEWLINE); at !== -1 && at < offset; at = bytes.indexOf(NEWLINE, at + 1)) line++;
  return line;
}
