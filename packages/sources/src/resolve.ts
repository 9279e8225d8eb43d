/**
 * `@skillctx/sources/resolve`: resolve git, URL and MCP skill sources into cached folders, with the
 * lockfile (`skills.lock.json`) and the project's sources file (`skills.json`). A separate entry because
 * it loads zod and the MCP client code: the engine imports it only when a context names a remote source.
 */
export { resolveSources, sourceKey } from "./resolve-sources.js";
export { LOCKFILE_NAME, pruneLockfile } from "./lockfile.js";
export { readProjectSources, SOURCES_FILE_NAME } from "./project-sources.js";
export { cacheEntryOf, pruneRemoteCache } from "./cache-prune.js";

export type { ResolvedSources } from "./resolve-sources.js";
export type { ProjectSources } from "./project-sources.js";
export type { CachePruned } from "./cache-prune.js";
