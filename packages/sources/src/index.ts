/**
 * `@skillctx/sources`: skills from anywhere. This entry is what the engine loads at start: the source types,
 * the remote-source test, the cache folder, merging resolved remote skills into the local set and signature
 * checks (sigstore loads on first use). Resolving git, URL and MCP sources and the lockfile are at
 * `@skillctx/sources/resolve`, loaded with `import()` only when a context names a remote source.
 */
export { isRemoteSource } from "./types.js";
export { defaultCacheDir } from "./cache-dir.js";
export { mergeRemoteSkills } from "./merge-remote.js";
export { verifySignatures, SIGNATURE_BUNDLE_FILE } from "./verify-signatures.js";
export { verifiedFileDigest, verifiedFolderChange, SKILL_CHANGED_CODE } from "./verified-snapshot.js";

export type {
  SourceInput,
  RemoteSkillSource,
  McpSkillSource,
  GitSkillSource,
  UrlSkillSource,
  LockMode,
  ResolvedSkill,
  ResolvedRemote,
  RemoteContext,
} from "./types.js";
export type { VerifySettings } from "./verify-signatures.js";
