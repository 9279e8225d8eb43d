/**
 * PEP 723 inline script metadata: the `# /// script` ... `# ///` comment block. Only found here and
 * read for what a diagnostic needs (the dependencies it names and `requires-python`); `uv run --script`
 * reads the block itself when it runs the script.
 */

/** A script's `# /// script` block. */
export interface ScriptMetadata {
  /** 1-based line of the `# /// script` opener. */
  line: number;
  /** The block's TOML, comment markers removed, as `uv` reads it. */
  toml: string;
  /** The block's text as written (opener and closer included). */
  block: string;
  /** Requirement strings of `dependencies` (best effort: string items of the array). */
  dependencies: string[];
  requiresPython: string | undefined;
}

const OPENER = /^# \/\/\/ ([A-Za-z0-9-]+)[ \t]*$/;
const CLOSER = /^# \/\/\/[ \t]*$/;

/**
 * The `script` block of a Python source, or undefined when there is none. Follows the PEP's reference
 * reading: every line between the opener and the closer is `#` or `# ...`; the last closer before a
 * non-comment line ends the block. Two `script` blocks make the metadata invalid (`{ error }`).
 */
export function scriptMetadata(source: string): ScriptMetadata | { error: string } | undefined {
  const lines = source.split(/\r?\n/);
  let found: ScriptMetadata | undefined;
  for (let i = 0; i < lines.length; i++) {
    const opener = OPENER.exec(lines[i]!);
    if (opener === null) continue;
    let end: number | undefined;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (CLOSER.test(line)) end = j;
      if (line !== "#" && !line.startsWith("# ")) break;
    }
    if (end === undefined) continue;
    if (opener[1] === "script") {
      if (found !== undefined) return { error: `two "# /// script" blocks (lines ${found.line} and ${i + 1})` };
      const content = lines.slice(i + 1, end).map((line) => (line === "#" ? "" : line.slice(2)));
      const toml = content.join("\n");
      found = {
        line: i + 1,
        toml,
        block: lines.slice(i, end + 1).join("\n"),
        dependencies: arrayStrings(toml, "dependencies"),
        requiresPython: stringValue(toml, "requires-python"),
      };
    }
    i = end;
  }
  return found;
}

/** String items of a top-level TOML array `key = [...]` (single- or multi-line). */
function arrayStrings(toml: string, key: string): string[] {
  const start = new RegExp(`^${key}\\s*=\\s*\\[`, "m").exec(toml);
  if (start === null) return [];
  const out: string[] = [];
  let i = start.index + start[0].length;
  while (i < toml.length) {
    const c = toml[i]!;
    if (c === "]") break;
    if (c === "#") {
      const nl = toml.indexOf("\n", i);
      i = nl === -1 ? toml.length : nl;
      continue;
    }
    if (c === '"' || c === "'") {
      const close = toml.indexOf(c, i + 1);
      if (close === -1) break;
      out.push(toml.slice(i + 1, close));
      i = close + 1;
      continue;
    }
    i++;
  }
  return out;
}

function stringValue(toml: string, key: string): string | undefined {
  const found = new RegExp(`^${key}\\s*=\\s*(["'])([^"'\\n]*)\\1`, "m").exec(toml);
  return found?.[2];
}
