/**
 * Opaque pagination cursors of the skill server: `base64url("<kind>.<generation>.<offset>")`. A cursor
 * names the snapshot it was made for, so a page never mixes two snapshots; anything else a client
 * sends (too long, not base64url, another kind, an offset past the end) is refused, never parsed further.
 */
import { MAX_CURSOR_CHARS } from "./limits.js";

/** What a cursor points at. */
export interface CursorPosition {
  generation: string;
  offset: number;
}

/** The cursor of `offset` in the listing `kind` (`skills`, `resources`, `dir:<uri>`...) of snapshot `generation`. */
export function makeCursor(kind: string, generation: string, offset: number): string {
  return Buffer.from(`${kindTag(kind)}.${generation}.${offset}`).toString("base64url");
}

/** The position `cursor` names, or undefined when it is not a cursor of the listing `kind`. */
export function readCursor(kind: string, cursor: string): CursorPosition | undefined {
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const match = /^([0-9a-z]+)\.([0-9a-f]{1,32})\.(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  if (match === null || match[1] !== kindTag(kind)) return undefined;
  return { generation: match[2]!, offset: Number(match[3]) };
}

// A short tag per listing: a cursor of one directory is not a cursor of another.
function kindTag(kind: string): string {
  let hash = 2166136261;
  for (let i = 0; i < kind.length; i++) hash = Math.imul(hash ^ kind.charCodeAt(i), 16777619) >>> 0;
  return hash.toString(36);
}
