import type { Diagnostic, SkillSourceInput } from "@skillctx/core";
import { isRemoteSource } from "./types.js";
import type { RemoteContext, ResolvedRemote, SourceInput } from "./types.js";

/** Local sources as given, and every remote source resolved to cached, verified folders. */
export interface ResolvedSources {
  local: SkillSourceInput[];
  remote: ResolvedRemote[];
  diagnostics: Diagnostic[];
}

/**
 * Splits `sources` into local ones and remote ones, resolving each remote source (MCP, git, URL)
 * and checking it against the lockfile. One failing source is a diagnostic; the others load.
 * SCAFFOLD: remote sources are not resolved yet (owners: sources/git-source.ts, url-source.ts, mcp-source.ts, lockfile.ts).
 */
export async function resolveSources(sources: readonly SourceInput[] | undefined, _context: RemoteContext): Promise<ResolvedSources> {
  const local: SkillSourceInput[] = [];
  const remote: ResolvedRemote[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const source of sources ?? []) {
    if (!isRemoteSource(source)) local.push(source as SkillSourceInput);
  }
  return { local, remote, diagnostics };
}
