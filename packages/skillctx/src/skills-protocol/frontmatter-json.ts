/**
 * SEP-2640's `frontmatter`: a SKILL.md's YAML frontmatter rendered as JSON, every field the author
 * wrote, with its YAML types (`version: 2` is the number 2, `enabled: true` the boolean). Core's
 * frontmatter parser reads it (caps, alias bombs, `__proto__` keys); the server builds entries with
 * this function and a consuming host compares a fetched SKILL.md against an entry with it, so both
 * sides agree byte for byte on what "the same frontmatter" means.
 */
import { readFrontmatter } from "@skillctx/core/internal";

/** What {@link skillFrontmatterJson} read. */
export type FrontmatterJson =
  | { ok: true; frontmatter: Record<string, unknown> }
  | { ok: false; message: string; line?: number | undefined };

/**
 * The frontmatter of `text` (a SKILL.md) as a JSON object, or why it has none: no closed `---`
 * block, broken YAML, a block that is not a mapping. Values JSON cannot hold (`.inf`, `.nan`) are kept
 * as the author wrote them. Never throws.
 */
export function skillFrontmatterJson(text: string, options: { path?: string } = {}): FrontmatterJson {
  const read = readFrontmatter(text, options.path === undefined ? {} : { path: options.path });
  if (read.data === undefined) {
    const error = read.diagnostics.find((d) => d.severity === "error") ?? read.diagnostics[0];
    return {
      ok: false,
      message: error?.message ?? "SKILL.md has no frontmatter (a --- block at the top)",
      line: error?.line,
    };
  }
  const frontmatter: Record<string, unknown> = {};
  for (const [key, written] of Object.entries(read.data)) {
    const typed = read.typedValue(key);
    frontmatter[key] = typed === undefined ? written : jsonSafe(typed, written);
  }
  return { ok: true, frontmatter };
}

// A typed value JSON can carry; where it cannot (non-finite numbers, bigints), the value as written.
function jsonSafe(typed: unknown, written: unknown): unknown {
  if (typeof typed === "number") return Number.isFinite(typed) ? typed : written;
  if (typeof typed === "bigint") return written;
  if (Array.isArray(typed)) {
    const asWritten = Array.isArray(written) ? written : [];
    return typed.map((item, i) => jsonSafe(item, asWritten[i]));
  }
  if (typeof typed === "object" && typed !== null) {
    const asWritten = typeof written === "object" && written !== null ? (written as Record<string, unknown>) : {};
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(typed)) out[key] = jsonSafe(item, asWritten[key]);
    return out;
  }
  return typed;
}
