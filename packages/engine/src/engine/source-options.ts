// The `sources` group of `AgentContext.create`'s options (options.ts holds the others).
import type { SkillCache } from "@skillctx/core";
import type { LockMode, VerifySettings } from "@skillctx/sources";

/**
 * Where skills come from besides `cwd` and the `skills` option, and which ones apply: the user's
 * folders, the project root, left-out names, the metadata cache, signatures, watching, remote sources.
 */
export interface SourceOptions {
  /**
   * Also read the user's skill folders (`~/.agents/skills`, `~/.claude/skills`, `~/.openhands/skills`), or these folders. @default false
   * @example
   * sources: { userSkills: true } // or ["/opt/team-skills"]
   */
  userSkills?: boolean | string[];
  /**
   * The home folder for user skills, user guidance and the default cache folder. @default os.homedir()
   * @example
   * sources: { homeDir: "/home/agent" }
   */
  homeDir?: string;
  /**
   * Names whose presence marks the project root, nearest first, as Codex's `project_root_markers`
   * (`[".git", ".hg"]`); `[]` makes cwd the root. Skills and guidance are read from cwd up to it.
   * @default [".git"]
   * @example
   * sources: { projectRootMarkers: [".git", "pnpm-workspace.yaml"] }
   */
  projectRootMarkers?: string[];
  /**
   * Skill names to leave out everywhere. @default []
   * @example
   * sources: { disabled: ["legacy-deploy"] }
   */
  disabled?: string[];
  /**
   * A skill metadata cache shared between contexts. @default a new cache per context
   * @example
   * const cache = createSkillCache(); // shared by every context of the process
   * sources: { cache }
   */
  cache?: SkillCache;
  /**
   * Keep what the skill scan derives from each SKILL.md (metadata, diagnostics) on disk, so the next process
   * stats each file instead of reading and parsing it: `true` in the user's cache folder (`SKILLCTX_CACHE_DIR`,
   * else `$XDG_CACHE_HOME/skillctx`, else `~/.cache/skillctx`, under `homeDir` when given), `{ dir }` in a folder
   * of your own, `false` never. A file is used again only while its size, mtime, ctime, inode, device and mode
   * are unchanged; the context's output is the same with or without it (docs/decisions.md, issue 36).
   * @default true
   * @example
   * sources: { persistentCache: false } // a host that keeps no files between processes
   */
  persistentCache?: boolean | { dir?: string };
  /**
   * Required signatures of skill folders (sigstore); a skill that fails is not loaded. @default none: no signature is required
   * @example
   * sources: { verify: { identities: [{ issuer: "https://token.actions.githubusercontent.com", subject: "https://github.com/acme/skills/.github/workflows/sign.yml@refs/heads/main" }] } }
   */
  verify?: VerifySettings;
  /**
   * Watch local skill sources and refresh changed skills before the next step (debounced). @default false
   * @example
   * sources: { watch: { debounceMs: 200 } }
   */
  watch?: boolean | { debounceMs?: number };
  /**
   * How remote sources (`{ git }`, `{ url }`, `{ mcp }` in `skills`) are fetched and locked.
   * @example
   * sources: { remote: { lock: "frozen", offline: true } }
   */
  remote?: RemoteSourceOptions;
}

/** How remote sources are fetched and locked (`sources.remote`). */
export interface RemoteSourceOptions {
  /**
   * How remote sources meet `skills.lock.json`. @default "update"
   * @example
   * sources: { remote: { lock: "frozen" } } // CI: fail when skills.lock.json is out of date
   */
  lock?: LockMode;
  /**
   * Folder of fetched remote sources. @default `$XDG_CACHE_HOME/skillctx` or `~/.cache/skillctx`
   * @example
   * sources: { remote: { cacheDir: "/var/cache/agent-skills" } }
   */
  cacheDir?: string;
  /**
   * Use cached remote sources only; never touch the network. @default false
   * @example
   * sources: { remote: { offline: true } }
   */
  offline?: boolean;
}
