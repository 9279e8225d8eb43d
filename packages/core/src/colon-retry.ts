import { FrontmatterScanner } from "./frontmatter-scan.js";

/** One value that was put in quotes. */
export interface QuotedValue {
  /** 0-based line in the block. */
  line: number;
  /** The value as it was written. */
  value: string;
}

/**
 * Puts double quotes around every plain value that holds an unquoted `: ` (or ends in `:`), such as
 * `description: Use when: the user asks`, which YAML reads as a nested mapping and rejects.
 * Continuation lines of a multi-line plain value are taken into the quotes (double-quoted scalars fold
 * lines the same way). Values with a ` #` comment are left alone. Returns undefined when nothing changed.
 */
export function quoteColonValues(block: string): { text: string; quoted: QuotedValue[] } | undefined {
  const lines = block.split("\n");
  const scanner = new FrontmatterScanner();
  const quoted: QuotedValue[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const info = scanner.push(line);
    const plain = info.plain;
    if (plain === undefined) {
      i++;
      continue;
    }
    // Gather the continuation lines of this plain value.
    let last = i;
    while (last + 1 < lines.length) {
      const next = scanner.push(lines[last + 1]!);
      if (next.continuation !== true) {
        // Re-scan that line from a clean state on the next turn.
        break;
      }
      last++;
    }
    const head = line.slice(plain.start).replace(/[ \t]+$/, "");
    const tail = lines.slice(i + 1, last + 1);
    const whole = [head, ...tail].join("\n");
    if (/:[ \t]|:$|:\n/.test(whole) && !/(^|[ \t])#/.test(whole)) {
      const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
      lines[i] = `${line.slice(0, plain.start)}"${esc(head)}${tail.length === 0 ? '"' : ""}`;
      for (let k = i + 1; k <= last; k++) {
        lines[k] = esc(lines[k]!.replace(/[ \t]+$/, "")) + (k === last ? '"' : "");
      }
      quoted.push({ line: i, value: whole });
    }
    i = last + 1;
    // The scanner has seen line `last + 1` already; a plain value leaves no open quote or block
    // behind, so a fresh scanner fed from that line on reads it exactly as before.
    scanner.reset();
  }
  if (quoted.length === 0) return undefined;
  return { text: lines.join("\n"), quoted };
}
