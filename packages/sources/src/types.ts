/**
 * Skill sources beyond the local disk: an MCP server speaking the skills extension, a git
 * repository, a well-known URL index. Each resolves to local folders (verified copies in the cache)
 * that discovery loads with scope `remote` and `source.origin` = the source's name. A leaf module.
 */
import type { Diagnostic, SkillSourceInput, Trust } from "@skillctx/core";
import type { Sha256Digest } from "@skillctx/core/internal";

/** Skills served by an MCP server (SEP-2640 `skills/list`, `skills/get`, `skill://` resources). */
export interface McpSkillSource {
  /** A server config as in `.mcp.json`: `{ command, args?, env? }` (stdio) or `{ type: "http", url, headers? }`. */
  mcp: Record<string, unknown>;
  /** The host-assigned label of the server: origin in the catalog, `<name>:<skill>` on a clash, `trust.remote` entry. */
  name: string;
  /** How long a listing is fresh when the server sends no `ttlMs`. @default 300000 */
  ttlMs?: number;
}

/** Skills in a git repository, cloned with the git CLI into the cache (by commit). */
export interface GitSkillSource {
  /** Clone URL (`https://...`, `git@...`, `file://...`). */
  git: string;
  /** Branch, tag or commit. @default the remote's HEAD */
  ref?: string;
  /** Folder inside the repository holding the skills (a skill folder or a parent of skill folders). @default the root */
  path?: string;
  /** Label of the source. @default derived from the URL (`owner/repo`) */
  name?: string;
}

/** Skills published at `<url>/.well-known/agent-skills/index.json`. */
export interface UrlSkillSource {
  url: string;
  /** @default the URL's host */
  name?: string;
  /** @default 300000 */
  ttlMs?: number;
}

export type RemoteSkillSource = McpSkillSource | GitSkillSource | UrlSkillSource;

/** What `skills` accepts: local paths and Skill objects, and remote sources. */
export type SourceInput = SkillSourceInput | RemoteSkillSource;

/** One skill of a resolved remote source, as the lockfile records it. */
export interface ResolvedSkill {
  name: string;
  /** The skill folder in the local cache. */
  dir: string;
  /** `folderDigest` of its files. */
  digest: Sha256Digest;
}

/** A remote source resolved to verified local folders. */
export interface ResolvedRemote {
  /** Stable key of the source in the lockfile (`git:<url>#<path>`, `url:<url>`, `mcp:<name>`). */
  key: string;
  /** The source's name (`skill.source.origin`). */
  origin: string;
  /** What the source resolved to: a commit, an index revision (digest of the index), a listing digest. */
  resolved: { commit?: string; revision?: string };
  skills: ResolvedSkill[];
  diagnostics: Diagnostic[];
  /** Refresh after this many milliseconds (MCP and URL sources). */
  ttlMs?: number;
}

/** How remote sources meet the lockfile. `update`: record what they resolve to; `frozen`: refuse drift; `off`: no lockfile. */
export type LockMode = "update" | "frozen" | "off";

/** What resolving remote sources needs. */
export interface RemoteContext {
  /** The working folder: relative paths of the sources resolve here (and `skills.lock.json` lives here unless `lockDir` says otherwise). */
  cwd: string;
  /** Where `skills.lock.json` is read and written: the project root. @default `cwd` */
  lockDir?: string | undefined;
  /** Cache of fetched sources. @default `$XDG_CACHE_HOME/skillctx` or `~/.cache/skillctx` */
  cacheDir: string;
  lock: LockMode;
  /** Work offline: use the cache only (a source not cached yet is a diagnostic). @default false */
  offline?: boolean;
  signal?: AbortSignal | undefined;
  /**
   * Who named the sources: the caller's code (trusted, as programmatic skills are) or a repository's
   * `skills.json` (repository content: a source that would start a program needs `trust.project`).
   * @default "caller"
   */
  declaredBy?: "caller" | "project" | undefined;
  /** The trust of the caller, read when `declaredBy` is `"project"`. @default untrusted */
  trust?: Trust | undefined;
}

export function isRemoteSource(input: unknown): input is RemoteSkillSource {
  if (typeof input !== "object" || input === null || "content" in input) return false;
  return "mcp" in input || "git" in input || "url" in input;
}
