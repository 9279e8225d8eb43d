/** Why a glob written in a rule cannot be used there. */
export type GlobProblem = "negated" | "parent" | "empty";

/**
 * Normalises one glob written relative to the folder that declares it (a skill's `paths:`, a Cursor
 * rule's `globs`, a Copilot `applyTo`), as OpenHands, Cursor and `.gitignore` read it:
 * - a glob without `/` matches at any depth: `*.ts` → `**\/*.ts`, `Makefile` → `**\/Makefile`;
 * - a leading `./` or `/` anchors it at the folder: `./src/*.ts` → `src/*.ts`, `./Makefile` and `/Makefile` → `/Makefile`
 *   (an anchored glob without any other `/` keeps its `/`, so normalising twice changes nothing);
 * - a trailing `/` means everything below: `docs/` → `docs/**`; `**` stays `**`.
 *
 * Refused: a leading `!` (`negated`: a rule cannot exclude; the path matcher strips `!` itself
 * before normalising), a `..` segment (`parent`), and nothing left (`empty`).
 *
 * @example
 * normalizeGlob("*.ts") // { glob: "**\/*.ts" }
 */
export function normalizeGlob(glob: string): { glob: string } | { problem: GlobProblem } {
  const trimmed = trimGlob(glob);
  if (trimmed.startsWith("!")) return { problem: "negated" };
  const normal = canonicalGlob(trimmed);
  if (normal === "") return { problem: "empty" };
  if (normal.split("/").includes("..")) return { problem: "parent" };
  return { glob: normal };
}

/** The normal form of {@link normalizeGlob} without its checks ("" when nothing is left). */
export function canonicalGlob(glob: string): string {
  let g = trimGlob(glob);
  let anchored = false;
  while (g.startsWith("./")) {
    g = g.slice(2);
    anchored = true;
  }
  if (g.startsWith("/")) anchored = true;
  let start = 0;
  while (g.charCodeAt(start) === 0x2f) start++;
  g = g.slice(start);
  if (g.endsWith("/") && !endsEscaped(g)) g = `${g}**`;
  if (g === "" || g === "**" || g.includes("/")) return g;
  return anchored ? `/${g}` : `**/${g}`;
}

/**
 * Escapes glob syntax (and blanks, which trimming would eat) in a literal path, so the result
 * matches exactly that path: `app/[id]` → `app/\[id\]`. `/` is kept (it separates folders).
 */
export function escapeGlob(literal: string): string {
  return literal.replace(/[\\*?[\]{}(),!+@|^$\s]/g, "\\$&");
}

/** Removes blanks around a glob, except a blank escaped with `\` at its end. */
export function trimGlob(glob: string): string {
  const start = glob.trimStart();
  let end = start.length;
  while (end > 0 && /\s/.test(start[end - 1]!) && !escapedAt(start, end - 1)) end--;
  return start.slice(0, end);
}

/** The glob for `folder` (relative, `/`-separated) and everything below it: `server` → `server/**`; `""` → `**`. */
export function folderGlob(folder: string): string {
  return folder === "" ? "**" : `${escapeGlob(folder)}/**`;
}

// A trailing `/` preceded by an odd number of backslashes is an escaped slash, not "everything below".
function endsEscaped(g: string): boolean {
  return escapedAt(g, g.length - 1);
}

// Whether the character at `i` follows an odd number of backslashes.
function escapedAt(text: string, i: number): boolean {
  let count = 0;
  for (let j = i - 1; j >= 0 && text.charCodeAt(j) === 0x5c; j--) count++;
  return count % 2 === 1;
}
