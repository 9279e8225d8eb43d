/**
 * The budget of nested-skill notes in one step: each note is capped (MAX_CATALOG_NOTE_BYTES), the notes
 * on one tool result together too (MAX_NESTED_NOTES_BYTES_PER_RESULT), and with `catalog.budgetTokens`
 * the notes of the whole step take at most that many tokens. A folder whose note does not fit is still
 * revealed (its skills load by name, its note comes when a later tool call touches it again); the tool
 * result gets one cut line that says how many folders were left out and names the first of them, and the
 * step a `CATALOG_NOTE_CUT` diagnostic.
 */
import { Buffer } from "node:buffer";
import { countTokens, diagnostic, promptLine } from "@skillctx/core";
import { isModelInvocable } from "@skillctx/core/internal";
import type { Diagnostic, Skill } from "@skillctx/core";
import { buildCatalogNote } from "./catalog-note.js";
import type { Templates } from "./templates.js";
import { MAX_CATALOG_NOTE_BYTES, MAX_NESTED_NOTES_BYTES_PER_RESULT } from "../limits.js";
import type { Attachment } from "./state.js";

/** A note smaller than this lists nothing but its frame and cut line: the folder is left out instead. */
const MIN_NOTE_BYTES = 1_024;
/** Folders the cut line names, each shown to at most NAMED_CHARS code points; the rest are counted. */
const NAMED_IN_CUT_LINE = 5;
const NAMED_CHARS = 100;
/** Kept free for the cut line: bytes (at most about 900 with five long folder names) and tokens (it names no folder past them). */
const CUT_LINE_RESERVE = 1_024;
const CUT_LINE_RESERVE_TOKENS = 256;

interface Left {
  match: string;
  folders: string[];
}

/** One step's budget of nested-skill notes (see the module comment). */
export class NestedNoteBudget {
  private readonly bytesLeft = new Map<string, number>();
  private tokensLeft: number;
  private readonly left = new Map<string, Left>();
  /** Bytes of the notes on one tool result, the cut line's room taken off. */
  private readonly notesBytes: number;

  constructor(
    budgetTokens: number | undefined,
    private readonly perResultBytes: number = MAX_NESTED_NOTES_BYTES_PER_RESULT,
  ) {
    this.tokensLeft =
      typeof budgetTokens === "number" && Number.isFinite(budgetTokens) && budgetTokens >= 0
        ? Math.max(0, budgetTokens - CUT_LINE_RESERVE_TOKENS)
        : Number.POSITIVE_INFINITY;
    this.notesBytes = Math.max(0, perResultBytes - CUT_LINE_RESERVE);
  }

  /** Most bytes the next note on the tool result `fingerprint` may take; undefined when none fits. */
  room(fingerprint: string): number | undefined {
    const bytes = Math.min(MAX_CATALOG_NOTE_BYTES, this.bytesLeft.get(fingerprint) ?? this.notesBytes);
    return bytes < MIN_NOTE_BYTES ? undefined : bytes;
  }

  /**
   * Whether `text` fits the step's tokens; when it does, it is spent. When it does not, `smaller` is
   * the byte cap that fits for sure (a token is at least one byte), or undefined when none fits.
   */
  take(fingerprint: string, text: string): { ok: true } | { ok: false; smaller: number | undefined } {
    const size = Buffer.byteLength(text, "utf8");
    const tokens = this.tokensLeft === Number.POSITIVE_INFINITY ? 0 : countTokens(text);
    if (tokens > this.tokensLeft) {
      const smaller = Math.min(this.room(fingerprint) ?? 0, Math.floor(this.tokensLeft));
      return { ok: false, smaller: smaller < MIN_NOTE_BYTES ? undefined : smaller };
    }
    this.tokensLeft -= tokens;
    this.bytesLeft.set(fingerprint, (this.bytesLeft.get(fingerprint) ?? this.notesBytes) - size);
    return { ok: true };
  }

  /** A folder whose note does not fit on the tool result `fingerprint`. */
  leaveOut(fingerprint: string, folder: string, match: string): void {
    const entry = this.left.get(fingerprint) ?? { match, folders: [] };
    entry.folders.push(folder);
    this.left.set(fingerprint, entry);
  }

  /** Adds the cut line of each tool result that had folders left out, and one diagnostic each, to `found`. */
  addCutLines<T extends { cutLines: Attachment[]; diagnostics: Diagnostic[] }>(found: T, loadInstruction: string): T {
    const notes = found.cutLines;
    const diagnostics = found.diagnostics;
    for (const [fingerprint, { match, folders }] of this.left) {
      const count = folders.length;
      const named = folders
        .slice(0, NAMED_IN_CUT_LINE)
        .map((folder) => promptLine(Array.from(folder).slice(0, NAMED_CHARS).join("")))
        .join(", ");
      const more = count > NAMED_IN_CUT_LINE ? ` and ${count - NAMED_IN_CUT_LINE} more` : "";
      const line = (list: string) =>
        `[skillctx: ${count} more nested skill ${count === 1 ? "folder was" : "folders were"} revealed by this tool call but not listed: the notes on one tool result are capped (${this.perResultBytes} bytes, and catalog.budgetTokens for the step). List ${list} to see their skills, and load one by name with ${loadInstruction}.]`;
      let text = line(`${named}${more}`);
      // Within the tokens kept for it, or it names no folder.
      if (this.tokensLeft !== Number.POSITIVE_INFINITY && countTokens(text) > CUT_LINE_RESERVE_TOKENS)
        text = line("the packages this call touched");
      notes.push({ skill: "", trigger: "catalog", match, fingerprint, text });
      diagnostics.push(
        diagnostic(
          "CATALOG_NOTE_CUT",
          "warning",
          `${count} nested skill ${count === 1 ? "folder" : "folders"} revealed by one tool call ${count === 1 ? "is" : "are"} not listed on its result: the notes on one tool result are capped at ${this.perResultBytes} bytes (and at catalog.budgetTokens for the step)`,
        ),
      );
    }
    this.left.clear();
    return found;
  }
}

/** What a folder's note says: the folder, its skills, the path that revealed it and the tool result it goes on. */
export interface NestedNoteSubject {
  folder: string;
  skills: readonly Skill[];
  match: string;
  fingerprint: string;
}

/**
 * The folder's catalog note within the step's budget; undefined when no skill of it is listed, or when it
 * does not fit (then it is counted on the tool result's cut line).
 */
export function budgetedNote(
  subject: NestedNoteSubject,
  lookup: { templates: Templates; catalogFormat: "xml" | "markdown" | undefined; loadInstruction: string },
  budget: NestedNoteBudget,
  diagnostics: Diagnostic[],
): Attachment | undefined {
  const { folder, match, fingerprint } = subject;
  const listed = subject.skills.filter(isModelInvocable);
  if (listed.length === 0) return undefined;
  const build = (maxBytes: number) =>
    buildCatalogNote({
      sections: [{ skills: listed }],
      frame: (catalog) =>
        lookup.templates.nestedCatalog({ folder, match, catalog, loadInstruction: lookup.loadInstruction }),
      format: lookup.catalogFormat,
      maxBytes,
      seeMore: `List ${promptLine(folder)} to see their names, and load one by name with ${lookup.loadInstruction}.`,
    });
  let maxBytes = budget.room(fingerprint);
  let note = maxBytes === undefined ? undefined : build(maxBytes);
  let taken = note === undefined ? undefined : budget.take(fingerprint, note.text);
  if (taken !== undefined && !taken.ok && taken.smaller !== undefined) {
    maxBytes = taken.smaller;
    note = build(maxBytes);
    taken = budget.take(fingerprint, note.text);
  }
  if (note === undefined || taken === undefined || !taken.ok) {
    budget.leaveOut(fingerprint, folder, match);
    return undefined;
  }
  if (note.omitted > 0)
    diagnostics.push(
      diagnostic(
        "CATALOG_NOTE_CUT",
        "warning",
        `the note of nested skill folder ${folder} lists ${note.listed} of ${listed.length} skills: it is capped at ${maxBytes} bytes`,
      ),
    );
  return { skill: folder, trigger: "catalog", match, fingerprint, text: note.text };
}
