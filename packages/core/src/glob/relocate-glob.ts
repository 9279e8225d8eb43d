import { parseWithinLimits } from "./compile-glob.js";
import type { GlobLimits } from "./compile-glob.js";
import { compileProgram, lastConsumers } from "./glob-program.js";
import type { ParsedGlob } from "./glob-syntax.js";
import { escapeGlob } from "./normalize-glob.js";

/**
 * Moves a normalised glob (see `normalizeGlob`) written for folder A so that it matches paths relative
 * to cwd:
 * - `{ down }`: A lies below cwd at `down`; the glob gets that prefix (escaped): `src/**` → `web/src/**`;
 * - `{ up }`: cwd lies below A at `up`; the globs returned match `p` exactly when the original matches
 *   `up/p` (`**` may absorb any part of `up`): `packages/*\/src/**` with up `packages/api` → `src/**`.
 *   None when the glob matches nothing below cwd.
 *
 * No brace is expanded: the `up` case runs the glob's automaton over `up/` and returns, for each state
 * alive at the end, the rest of the glob's text from there (at most one glob per glob character, in
 * practice one). A glob over the caps is returned unchanged (compiling it refuses it).
 */
export function relocateGlob(
  glob: string,
  where: { down: string } | { up: string },
  limits: Partial<GlobLimits> = {},
): string[] {
  const anchored = glob.startsWith("/");
  const body = anchored ? glob.slice(1) : glob;
  if ("down" in where) return [where.down === "" ? glob : `${escapeGlob(where.down)}/${body}`];
  if (where.up === "") return [glob];
  const parsed = parseWithinLimits(body, limits);
  if (typeof parsed === "string") return [glob];
  const program = compileProgram(parsed, { positions: true });
  const found = new Set<string>();
  for (const pc of lastConsumers(program, `${where.up}/`)) {
    const rest = anchorRest(restFrom(parsed, program.resume![pc]!, program.frame![pc]!));
    if (rest !== undefined) found.add(rest);
  }
  // `**/x` already covers `x` (and `/x`).
  return [...found].filter((g) => !found.has(`**/${g.startsWith("/") ? g.slice(1) : g}`));
}

// The glob's text from `offset` in `frame` to its end, through the enclosing groups.
function restFrom(parsed: ParsedGlob, offset: number, frame: number): string {
  let text = "";
  for (let f = frame, at = offset; f !== -1; ) {
    const current = parsed.frames[f]!;
    text += parsed.source.slice(at, current.altEnd);
    at = current.groupEnd;
    f = current.parent;
  }
  return text;
}

// A rest without `/` is anchored at cwd (`/Makefile`, as normalizeGlob writes it); one starting with `!` is escaped.
function anchorRest(rest: string): string | undefined {
  if (rest === "") return undefined;
  if (rest === "**" || rest.includes("/")) return rest.startsWith("!") ? `\\${rest}` : rest;
  return `/${rest}`;
}
