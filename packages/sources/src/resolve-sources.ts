import { mapConcurrent } from "@skillctx/core/internal";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic, SkillSourceInput } from "@skillctx/core";
import { markCacheUsed } from "./cache-prune.js";
import { resolveGitSource } from "./git-source.js";
import { gitSourceKey, gitSourceName } from "./git-source-names.js";
import { LOCKFILE_NAME, lockDrift, lockEntryOf, readLockfile, writeLockfile } from "./lockfile.js";
import type { LockedSource, Lockfile } from "./lockfile.js";
import { resolveMcpSource } from "./mcp-source.js";
import { resolveUrlSource, urlSourceKey } from "./url-source.js";
import { isRemoteSource } from "./types.js";
import type { GitSkillSource, RemoteContext, RemoteSkillSource, ResolvedRemote, SourceInput } from "./types.js";

/** Local sources as given, and every remote source resolved to cached, verified folders. */
export interface ResolvedSources {
  local: SkillSourceInput[];
  remote: ResolvedRemote[];
  diagnostics: Diagnostic[];
}

/** Diagnostics that say a source was served from the cache instead of its origin (offline, unreachable). */
const STALE_CODES = new Set(["GIT_CACHED", "URL_CACHED"]);

/** Remote sources resolved at the same time (each may run git or hold HTTP connections). */
const CONCURRENT_SOURCES = 4;

/**
 * Splits `sources` into local ones and remote ones, resolving each remote source (MCP, git, URL)
 * and checking it against the lockfile `<lockDir>/skills.lock.json` (`lockDir` defaults to `cwd`). One failing source is a
 * diagnostic; the others load. Sources resolve concurrently, four at a time.
 *
 * - `lock: "update"`: every source that resolved without an error is recorded (commit or index
 *   revision, each skill's folder digest); the file is written when its text changes. Entries of
 *   sources not given here are kept (`skillctx sync` prunes them).
 * - `lock: "frozen"`: a source without an entry, or one that drifted from it (see `lockDrift`), is
 *   refused with a `LOCK_MISMATCH` error and none of its skills load. Git sources check out the
 *   locked commit (a branch that moved is not drift while that commit can be fetched); URL sources
 *   use the cached copy of the locked index when there is one.
 * - `lock: "off"`: the lockfile is neither read nor written.
 */
export async function resolveSources(
  sources: readonly SourceInput[] | undefined,
  context: RemoteContext,
): Promise<ResolvedSources> {
  const local: SkillSourceInput[] = [];
  const wanted: RemoteSkillSource[] = [];
  for (const source of sources ?? []) {
    if (isRemoteSource(source)) wanted.push(source);
    else local.push(source as SkillSourceInput);
  }
  const diagnostics: Diagnostic[] = [];
  if (wanted.length === 0) return { local, remote: [], diagnostics };

  const lockDir = context.lockDir ?? context.cwd;
  const loaded = context.lock === "off" ? undefined : await readLockfile(lockDir);
  if (loaded !== undefined) diagnostics.push(...loaded.diagnostics);
  const lock: Lockfile = loaded?.lock ?? { version: 1, sources: {} };
  const next: Lockfile = { version: 1, sources: { ...lock.sources } };

  const seen = new Set<string>();
  const unique: RemoteSkillSource[] = [];
  for (const source of wanted) {
    const key = sourceKey(source);
    if (seen.has(key)) {
      diagnostics.push(
        diagnostic("SOURCE_DUPLICATE", "error", `remote source ${key} is given twice; the second is left out`),
      );
      continue;
    }
    seen.add(key);
    unique.push(source);
  }

  const results = await mapConcurrent(unique, CONCURRENT_SOURCES, (source) =>
    resolveLocked(source, lock.sources[sourceKey(source)], context),
  );
  const remote: ResolvedRemote[] = [];
  for (const [i, result] of results.entries()) {
    const source = unique[i]!;
    if (context.lock === "update") {
      const unclean = result.diagnostics.some((d) => d.severity === "error" || STALE_CODES.has(d.code));
      if (unclean && lock.sources[result.key] !== undefined) {
        // Offline or unreachable: what the cache had is not news, and must not overwrite what the lock says.
        result.diagnostics.push(
          diagnostic(
            "LOCK_NOT_UPDATED",
            "warning",
            `${LOCKFILE_NAME} keeps the entry of ${result.key}: the source did not resolve cleanly from its origin`,
          ),
        );
      } else if (!result.diagnostics.some((d) => d.severity === "error")) {
        next.sources[result.key] = lockEntryOf(result, gitRef(source));
      }
    }
    remote.push(result);
    diagnostics.push(...result.diagnostics);
  }
  // The entries loaded now are in use: a prune (skillctx sync) keeps what any project resolved recently.
  await markCacheUsed(context.cacheDir, remote);
  if (context.lock === "update") {
    try {
      await writeLockfile(lockDir, next, loaded?.exists === true ? lock : undefined);
    } catch (error) {
      diagnostics.push(
        diagnostic(
          "LOCK_WRITE_FAILED",
          "warning",
          `${LOCKFILE_NAME} cannot be written in ${lockDir}: ${(error as Error).message}`,
        ),
      );
    }
  }
  return { local, remote, diagnostics };
}

/** The lockfile key of a remote source: `git:<url>#<path>`, `url:<index URL>`, `mcp:<name>`. */
export function sourceKey(source: RemoteSkillSource): string {
  if ("git" in source) return gitSourceKey(source);
  if ("url" in source) return urlSourceKey(source);
  return `mcp:${source.name}`;
}

// One source, under the lock mode: frozen refuses a missing entry or drift and pins git to the locked commit.
async function resolveLocked(
  source: RemoteSkillSource,
  locked: LockedSource | undefined,
  context: RemoteContext,
): Promise<ResolvedRemote> {
  const frozen = context.lock === "frozen";
  if (frozen) {
    if (locked === undefined) return refused(source, `it is not in ${LOCKFILE_NAME}; run \`skillctx sync\` to add it`);
    const ref = gitRef(source);
    if (ref !== undefined && locked.ref !== undefined && locked.ref !== ref)
      return refused(source, `the ref is ${ref}, ${LOCKFILE_NAME} has ${locked.ref}`);
  }
  let result: ResolvedRemote;
  try {
    result = await resolveOne(source, context, locked, frozen);
  } catch (error) {
    context.signal?.throwIfAborted();
    result = {
      ...emptyResult(source),
      diagnostics: [
        diagnostic(
          "REMOTE_SOURCE_FAILED",
          "error",
          `remote source ${sourceKey(source)} failed: ${(error as Error).message}`,
        ),
      ],
    };
  }
  // Every skill is held to the lock, whatever else went wrong: an error on one entry (a bad digest, a
  // refused file) must never skip the check of the others. A source that loaded nothing has nothing to refuse.
  if (frozen && locked !== undefined && (result.skills.length > 0 || !hasError(result))) {
    const drift = lockDrift(locked, result, gitRef(source));
    if (drift !== undefined) {
      const refusedResult = refused(source, drift);
      refusedResult.diagnostics.unshift(...result.diagnostics);
      return { ...refusedResult, resolved: result.resolved };
    }
  }
  return result;
}

function resolveOne(
  source: RemoteSkillSource,
  context: RemoteContext,
  locked: LockedSource | undefined,
  frozen: boolean,
): Promise<ResolvedRemote> {
  const common = { cacheDir: context.cacheDir, offline: context.offline, signal: context.signal };
  if ("git" in source)
    return resolveGitSource(source, {
      ...common,
      lockedCommit: frozen ? locked?.commit : undefined,
      cachedHint: locked?.commit,
    });
  if ("url" in source)
    return resolveUrlSource(source, { ...common, lockedRevision: frozen ? locked?.revision : undefined });
  return resolveMcpSource(source, context);
}

function hasError(result: ResolvedRemote): boolean {
  return result.diagnostics.some((d) => d.severity === "error");
}

function refused(source: RemoteSkillSource, why: string): ResolvedRemote {
  return {
    ...emptyResult(source),
    diagnostics: [
      diagnostic(
        "LOCK_MISMATCH",
        "error",
        `remote source ${sourceKey(source)} is refused under the frozen lock: ${why}`,
      ),
    ],
  };
}

function emptyResult(source: RemoteSkillSource): ResolvedRemote {
  const origin = "git" in source ? gitSourceName(source) : "url" in source ? (source.name ?? source.url) : source.name;
  return { key: sourceKey(source), origin, resolved: {}, skills: [], diagnostics: [] };
}

// The ref a git source names (`HEAD` by default); undefined for other kinds.
function gitRef(source: RemoteSkillSource): string | undefined {
  return "git" in source ? ((source as GitSkillSource).ref ?? "HEAD") : undefined;
}
