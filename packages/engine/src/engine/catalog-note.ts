/**
 * The one builder of catalog notes, the text that tells the model about skills mid-conversation without
 * touching `system`: the note of a revealed nested skill folder (on the tool result that revealed it) and
 * the `<skills_update>` note of a reload. Every note has a byte budget: sections are filled in order, each
 * with as many of its entries as fit, and a note that had to leave entries out ends with one line that
 * says how many and how to see them; the caller reports a `CATALOG_NOTE_CUT` diagnostic.
 */
import { Buffer } from "node:buffer";
import { promptLine, renderCatalog } from "@skillctx/core";
import type { Skill } from "@skillctx/core";

/** One section of a note: catalog entries of skills under a title, or a sentence naming skills. */
export type CatalogNoteSection =
  | { title?: string | undefined; skills: readonly Skill[] }
  | { names: readonly string[]; sentence: (list: string) => string };

/** What {@link buildCatalogNote} needs. */
export interface CatalogNoteOptions {
  sections: readonly CatalogNoteSection[];
  /** The note around its body (the sections, and the cut line when there is one). */
  frame: (body: string) => string;
  format: "xml" | "markdown" | undefined;
  /** Most UTF-8 bytes of the whole note. */
  maxBytes: number;
  /** How the model sees what was left out, a sentence (`List packages/web/.claude/skills ...`). */
  seeMore: string;
}

/** A built note: its text, and how many entries it left out (0 when it is whole). */
export interface CatalogNote {
  text: string;
  listed: number;
  omitted: number;
}

/** Builds a catalog note within `maxBytes` (see the module comment). */
export function buildCatalogNote(options: CatalogNoteOptions): CatalogNote {
  const { sections, format, maxBytes } = options;
  const render = (section: CatalogNoteSection, count: number): string => {
    if ("skills" in section) {
      const catalog = renderCatalog(section.skills.slice(0, count), format === undefined ? {} : { format }).trim();
      return section.title === undefined ? catalog : `${section.title}\n${catalog}`;
    }
    // Names go through the one prompt escape (core text/prompt-text.ts), as catalog entries do.
    return section.sentence(section.names.slice(0, count).map(promptLine).join(", "));
  };
  const sizeOf = (section: CatalogNoteSection) => ("skills" in section ? section.skills.length : section.names.length);
  const whole = sections.filter((s) => sizeOf(s) > 0).map((s) => render(s, sizeOf(s)));
  const total = sections.reduce((sum, s) => sum + sizeOf(s), 0);
  const wholeText = options.frame(whole.join("\n\n"));
  if (bytes(wholeText) <= maxBytes) return { text: wholeText, listed: total, omitted: 0 };

  // Room for the cut line with the widest count it may name.
  const cutLine = (omitted: number) =>
    `[${omitted} more skill${omitted === 1 ? " is" : "s are"} not listed: this note is capped at ${maxBytes} bytes. ${options.seeMore}]`;
  let room = maxBytes - bytes(options.frame("")) - bytes(cutLine(total)) - 2;
  const parts: string[] = [];
  let listed = 0;
  for (const section of sections) {
    const size = sizeOf(section);
    if (size === 0) continue;
    // The most entries of this section that fit what is left (a binary search: rendering is linear).
    let low = 0;
    let high = size;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (bytes(render(section, mid)) + 2 <= room) low = mid;
      else high = mid - 1;
    }
    if (low === 0) continue;
    const text = render(section, low);
    room -= bytes(text) + 2;
    parts.push(text);
    listed += low;
  }
  const omitted = total - listed;
  parts.push(cutLine(omitted));
  return { text: options.frame(parts.join("\n\n")), listed, omitted };
}

function bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
