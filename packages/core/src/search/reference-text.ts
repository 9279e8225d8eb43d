import { openRegularFile } from "../fs/open-file.js";
import { resolveInside } from "../fs/paths.js";
import { MAX_INDEXED_REFERENCE_CHARS, MAX_INDEXED_REFERENCE_FILES } from "../limits.js";
import { headUtf16 } from "../text/cut-text.js";

// Files read as reference text: prose formats. Code, data and binaries are named by the "files" field only.
const TEXT_FILE = /\.(?:md|markdown|mdx|txt|rst|adoc)$/i;
// A markdown link's target or a path written in the body ("see references/forms.md").
const LINK =
  /\]\(\s*<?([^)\s>#?]+)|(?:^|[\s`'"(])((?:\.\/)?[\w.-]+(?:\/[\w.-]+)*\.(?:md|markdown|mdx|txt|rst|adoc))\b/gim;

/**
 * The text of the prose files a skill keeps in its folder (`files`: its file names, relative), the ones its
 * body links or names first, then the rest in order; at most `MAX_INDEXED_REFERENCE_FILES` files and
 * `MAX_INDEXED_REFERENCE_CHARS` of text in all. A stub SKILL.md that points at `references/*.md` is found by
 * what those files say (issue 33). Paths are resolved inside `dir` (a symlink out of it is not followed);
 * a file that cannot be read, is not a regular file or holds a NUL byte is skipped. Never throws.
 */
export async function referenceText(dir: string, body: string, files: readonly string[]): Promise<string> {
  const candidates = files.filter((file) => TEXT_FILE.test(file) && !/(?:^|\/)(?:LICENSE|CHANGELOG)[^/]*$/i.test(file));
  // Stryker disable next-line ConditionalExpression: a shortcut; with no candidate the loop below reads nothing and returns ""
  if (candidates.length === 0) return "";
  const known = new Set(candidates);
  const linked: string[] = [];
  for (const found of body.matchAll(LINK)) {
    const target = (found[1] ?? found[2] ?? "").replace(/^\.\//, "");
    if (known.has(target) && !linked.includes(target)) linked.push(target);
  }
  const order = [...linked, ...candidates.filter((file) => !linked.includes(file))];
  let text = "";
  for (const file of order.slice(0, MAX_INDEXED_REFERENCE_FILES)) {
    const room = MAX_INDEXED_REFERENCE_CHARS - text.length;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; with no room left a read gives "" (0 bytes)
    if (room <= 0) break;
    const read = await readTextHead(dir, file, room);
    if (read !== "") text += `${headUtf16(read, room - 1)}\n`;
  }
  return text;
}

// The first `chars` characters (as UTF-8 bytes, at most 4 per character) of a file inside `dir`, or "".
async function readTextHead(dir: string, file: string, chars: number): Promise<string> {
  const resolved = await resolveInside(dir, file);
  if (!resolved.ok) return "";
  const opened = await openRegularFile(resolved.realPath);
  if (!opened.ok) return "";
  try {
    // Stryker disable next-line MethodExpression: a larger buffer reads the whole file, and its first `chars` characters are the same
    const size = Math.min(opened.stats.size, chars * 4);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await opened.handle.read(buffer, 0, size, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return "";
    return bytes.toString("utf8");
  } catch {
    return "";
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}
