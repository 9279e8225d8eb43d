import { hashedToolName, MAX_TOOL_NAME_CHARS, reduceToolName } from "@skillctx/core/internal";
import { compareCodePoints } from "@skillctx/core";

/** A server's tool, before it gets the name the model sees. */
export interface ToolRef {
  server: string;
  tool: string;
}

/**
 * Names tools `mcp__<server>__<tool>`, reduced to `[A-Za-z0-9_-]` (other characters become
 * `_`) and at most {@link MAX_TOOL_NAME_CHARS} characters. A name that had to be cut, or that
 * would collide after the reduction, ends in `_` and an 8-hex-digit hash of the original
 * server and tool names, so names stay unique and the same on every run. The result does
 * not depend on the order of `refs`.
 *
 * @returns one name per ref, in the order of `refs`.
 */
export function assignToolNames(refs: readonly ToolRef[]): string[] {
  const candidates = refs.map((ref) => {
    const exact = `mcp__${ref.server}__${ref.tool}`;
    const reduced = `mcp__${reduceToolName(ref.server)}__${reduceToolName(ref.tool)}`;
    const name = reduced.length > MAX_TOOL_NAME_CHARS ? hashed(reduced, ref) : reduced;
    return { ref, name, exact: name === exact };
  });

  const groups = new Map<string, typeof candidates>();
  for (const candidate of candidates) {
    const group = groups.get(candidate.name);
    if (group === undefined) groups.set(candidate.name, [candidate]);
    else group.push(candidate);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    // The first exact name (by code point) keeps its name; every other member is hashed.
    const keeper = group.filter((c) => c.exact).sort((a, b) => compareRefs(a.ref, b.ref))[0];
    for (const candidate of group) if (candidate !== keeper) candidate.name = hashed(candidate.name, candidate.ref);
  }
  return candidates.map((c) => c.name);
}

function hashed(name: string, ref: ToolRef): string {
  return hashedToolName(name, `${ref.server}\0${ref.tool}`);
}

function compareRefs(a: ToolRef, b: ToolRef): number {
  return compareCodePoints(a.server, b.server) || compareCodePoints(a.tool, b.tool);
}
