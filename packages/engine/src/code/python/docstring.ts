/**
 * Reads a `main()` docstring (already cleaned by `ast.get_docstring`: common indentation removed) for
 * a tool description and parameter descriptions, in the three styles Python projects write:
 * Google (`Args:` / `Arguments:` / `Parameters:` then `name (type): text`), NumPy (`Parameters` over a
 * dashed line, then `name : type` and an indented text) and reST (`:param name:` / `:param type name:`).
 */

/** A docstring's summary (its first paragraph, on one line) and its parameter descriptions by name. */
export interface Docstring {
  summary: string | undefined;
  params: Map<string, string>;
}

const GOOGLE_HEADER = /^(\s*)(?:Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters):\s*$/;
const GOOGLE_ENTRY = /^\*{0,2}([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:\s?(.*)$/;
const NUMPY_HEADER = /^(?:Parameters|Other Parameters|Keyword Arguments)\s*$/;
const NUMPY_RULE = /^-{3,}\s*$/;
const NUMPY_ENTRY = /^\*{0,2}([A-Za-z_]\w*(?:\s*,\s*\*{0,2}[A-Za-z_]\w*)*)\s*(?::.*)?$/;
const REST_PARAM = /^:(?:param|parameter|arg|argument|key|keyword)\s/;
const REST_FIELD = /^:\w[^:]*:/;
// Lines that start a section (any style): the summary stops before them.
const SECTION_START = /^(?:[A-Z][A-Za-z ]*:\s*$|:\w[^:]*:|-{3,}\s*$)/;

/** Parses `doc` (undefined or empty: nothing). Never throws; unknown layouts give fewer descriptions. */
export function parseDocstring(doc: string | null | undefined): Docstring {
  const params = new Map<string, string>();
  if (doc === null || doc === undefined || doc.trim() === "") return { summary: undefined, params };
  const lines = doc.replace(/\r\n?/g, "\n").split("\n");
  readGoogle(lines, params);
  readNumpy(lines, params);
  readRest(lines, params);
  return { summary: summaryOf(lines), params };
}

function summaryOf(lines: readonly string[]): string | undefined {
  const taken: string[] = [];
  for (const [index, line] of lines.entries()) {
    const trimmed = line.trim();
    if (trimmed === "") {
      if (taken.length > 0) break;
      continue;
    }
    if (SECTION_START.test(trimmed) || NUMPY_RULE.test(lines[index + 1]?.trim() ?? "")) break;
    taken.push(trimmed);
  }
  return taken.length === 0 ? undefined : taken.join(" ");
}

function readGoogle(lines: readonly string[], params: Map<string, string>): void {
  for (let i = 0; i < lines.length; i++) {
    const header = GOOGLE_HEADER.exec(lines[i]!);
    if (header === null) continue;
    const base = header[1]!.length;
    let entryIndent: number | undefined;
    let current: { name: string; parts: string[] } | undefined;
    const flush = () => {
      if (current !== undefined && !params.has(current.name)) params.set(current.name, current.parts.join(" ").trim());
      current = undefined;
    };
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === "") continue;
      const indent = indentOf(line);
      if (indent <= base) {
        i--;
        break;
      }
      entryIndent ??= indent;
      if (indent === entryIndent) {
        flush();
        const entry = GOOGLE_ENTRY.exec(line.trim());
        if (entry !== null) current = { name: entry[1]!, parts: [entry[2] ?? ""] };
      } else if (indent > entryIndent) {
        current?.parts.push(line.trim());
      }
    }
    flush();
  }
}

function readNumpy(lines: readonly string[], params: Map<string, string>): void {
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!NUMPY_HEADER.test(lines[i]!.trim()) || !NUMPY_RULE.test(lines[i + 1]!.trim())) continue;
    const base = indentOf(lines[i]!);
    let current: { names: string[]; parts: string[] } | undefined;
    const flush = () => {
      if (current !== undefined) {
        const text = current.parts.join(" ").trim();
        for (const name of current.names) if (!params.has(name)) params.set(name, text);
      }
      current = undefined;
    };
    for (i += 2; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === "") continue;
      const indent = indentOf(line);
      if (indent < base) break;
      if (indent === base) {
        // The next section (a title over a dashed line) ends this one.
        if (NUMPY_RULE.test(lines[i + 1]?.trim() ?? "")) {
          i--;
          break;
        }
        flush();
        const entry = NUMPY_ENTRY.exec(line.trim());
        if (entry !== null)
          current = { names: entry[1]!.split(",").map((name) => name.trim().replace(/^\*+/, "")), parts: [] };
      } else {
        current?.parts.push(line.trim());
      }
    }
    flush();
  }
}

function readRest(lines: readonly string[], params: Map<string, string>): void {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!REST_PARAM.test(line)) continue;
    // `:param name: text` or `:param type name: text`: the name is the last word before the second colon.
    const colon = line.indexOf(":", 1);
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim().split(/\s+/).pop()?.replace(/^\*+/, "") ?? "";
    if (!/^[A-Za-z_]\w*$/.test(name)) continue;
    const indent = indentOf(lines[i]!);
    const parts = [line.slice(colon + 1)];
    while (i + 1 < lines.length) {
      const next = lines[i + 1]!;
      if (next.trim() === "" || indentOf(next) <= indent || REST_FIELD.test(next.trim())) break;
      parts.push(next.trim());
      i++;
    }
    if (!params.has(name)) params.set(name, parts.join(" ").trim());
  }
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
