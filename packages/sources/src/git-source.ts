import { GIT_LS_REMOTE_MAX_BYTES, GIT_SOURCE_TIMEOUT_MS } from "./limits.js";
import { mkdir, rm } from "node:fs/promises";
import * as path from "node:path";
import { withCacheLock } from "./cache-lock.js";
import { diagnostic } from "@skillctx/core";
import { checkRelativePath, resolveInside } from "@skillctx/core/internal";
import { runGit } from "@skillctx/process";
import type { ProcessResult } from "@skillctx/process";
import { isDir, locationKey, publishDir, tempDirFor } from "./cache-dir.js";
import { cachedCommit, rememberRef } from "./git-ref-cache.js";
import {
  COMMIT,
  gitRefProblem,
  gitSourceKey,
  gitSourceName,
  gitUrlProblem,
  normalisedPath,
} from "./git-source-names.js";
import { skillFoldersIn } from "./skill-folders.js";
import type { GitSkillSource, ResolvedRemote } from "./types.js";
import type { DiagnosticCode } from "@skillctx/core";

/** Options of {@link resolveGitSource}. */
export interface GitSourceOptions {
  /** Root of the cache; this source lives under `<cacheDir>/git/<hash of the URL>/`. */
  cacheDir: string;
  /** Never touch the network: use the cached checkout of the locked, the last resolved or the newest commit. */
  offline?: boolean | undefined;
  /** The commit the lockfile pins (under `lock: "frozen"`): checked out instead of resolving `ref`. */
  lockedCommit?: string | undefined;
  /** The commit the lockfile records (any lock mode but off): preferred when the cache must stand in for the network. */
  cachedHint?: string | undefined;
  /** Time allowed to each network command (`ls-remote`, `fetch`). @default 120000 */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Resolves a git source to verified local folders: `ref` → a commit (`git ls-remote`, or the locked
 * commit under `lock: "frozen"`), a shallow fetch of that commit into a bare repository of the cache,
 * and a checkout at `<cacheDir>/git/<url hash>/<commit>/` written to a temp folder and renamed into
 * place. A commit already in the cache is used without fetching. When the network fails (or with
 * `offline`), the cached checkout of the locked commit, the commit `ref` last resolved to, or else
 * the newest cached one is used, with a warning. Git runs through the process layer with argv only,
 * `--` before user values, transports limited to https/ssh/git/file, no hooks, no fsmonitor, no
 * prompts. Never throws for a bad source: the result carries an error diagnostic and no skills.
 */
export async function resolveGitSource(source: GitSkillSource, options: GitSourceOptions): Promise<ResolvedRemote> {
  const result: ResolvedRemote = {
    key: gitSourceKey(source),
    origin: gitSourceName(source),
    resolved: {},
    skills: [],
    diagnostics: [],
  };
  const fail = (code: DiagnosticCode, message: string): ResolvedRemote => {
    result.diagnostics.push(diagnostic(code, "error", `git source ${source.git}: ${message}`));
    return result;
  };
  const urlProblem = typeof source.git === "string" ? gitUrlProblem(source.git) : "the URL is not a string";
  if (urlProblem !== undefined) return fail("GIT_SOURCE_INVALID", urlProblem);
  const refProblem =
    source.ref === undefined
      ? undefined
      : typeof source.ref === "string"
        ? gitRefProblem(source.ref)
        : "the ref is not a string";
  if (refProblem !== undefined) return fail("GIT_SOURCE_INVALID", `ref ${JSON.stringify(source.ref)}: ${refProblem}`);
  const subPath = normalisedPath(source.path);
  if (source.path !== undefined && subPath === undefined) {
    const checked =
      typeof source.path === "string" ? checkRelativePath(source.path) : { ok: false as const, reason: "not a string" };
    if (!checked.ok) return fail("GIT_SOURCE_INVALID", `path ${JSON.stringify(source.path)}: ${checked.reason}`);
  }
  if (options.lockedCommit !== undefined && !COMMIT.test(options.lockedCommit))
    return fail("LOCK_INVALID", `the locked commit ${JSON.stringify(options.lockedCommit)} is not a full commit id`);

  const repoDir = path.join(options.cacheDir, "git", locationKey(source.git));
  // Sources with one URL and different paths share this cache repository, and so do processes sharing
  // the cache: one resolution at a time, across processes (cache-lock.ts).
  const locked = await withCacheLock(
    repoDir,
    () => resolveInCache(source, options, { repoDir, subPath, result, fail }),
    { signal: options.signal },
  );
  return locked.ok ? locked.value : fail("CACHE_LOCK_FAILED", locked.message);
}

// The part that reads and writes the cache repository (ls-remote, fetch, checkout, remembered refs).
async function resolveInCache(
  source: GitSkillSource,
  options: GitSourceOptions,
  at: {
    repoDir: string;
    subPath: string | undefined;
    result: ResolvedRemote;
    fail: (code: DiagnosticCode, message: string) => ResolvedRemote;
  },
): Promise<ResolvedRemote> {
  const { repoDir, subPath, result, fail } = at;
  const refName = source.ref ?? "HEAD";
  const git = new Git(source.git, repoDir, options);

  let commit: string | undefined = options.lockedCommit ?? (COMMIT.test(refName) ? refName : undefined);
  if (commit === undefined) {
    if (options.offline !== true) {
      const listed = await git.lsRemote(refName);
      if (listed.ok) {
        if (listed.commit === undefined)
          return fail("GIT_REF_NOT_FOUND", `no branch, tag or ref ${JSON.stringify(refName)}`);
        commit = listed.commit;
      } else {
        result.diagnostics.push(
          diagnostic("GIT_UNREACHABLE", "warning", `git source ${source.git}: ${listed.message}; using the cache`),
        );
      }
    }
    if (commit === undefined) {
      commit = await cachedCommit(repoDir, refName, options.cachedHint, result.diagnostics);
      if (commit === undefined)
        return fail(
          "GIT_NOT_CACHED",
          `${options.offline === true ? "offline and " : ""}no cached checkout of ${refName}`,
        );
      result.diagnostics.push(
        diagnostic(
          "GIT_CACHED",
          "warning",
          `git source ${source.git}: ${refName} was not resolved on the network; using the cached commit ${commit}`,
        ),
      );
    }
  }

  const checkout = path.join(repoDir, commit);
  if (!(await isDir(checkout))) {
    if (options.offline === true) return fail("GIT_NOT_CACHED", `offline and commit ${commit} is not in the cache`);
    const fetched = await git.fetchCheckout(
      commit,
      refName === "HEAD" || COMMIT.test(refName) ? undefined : refName,
      checkout,
    );
    if (!fetched.ok) return fail(fetched.code, fetched.message);
  }
  result.resolved.commit = commit;
  if (options.lockedCommit === undefined && !COMMIT.test(refName))
    await rememberRef(repoDir, refName, commit, result.diagnostics);

  let root = checkout;
  if (subPath !== undefined) {
    const inside = await resolveInside(checkout, subPath);
    if (!inside.ok)
      return fail(
        inside.code === "NOT_FOUND" ? "GIT_PATH_NOT_FOUND" : "GIT_SOURCE_INVALID",
        `path ${subPath} at ${commit.slice(0, 12)}: ${inside.reason}`,
      );
    if (!inside.stats.isDirectory())
      return fail("GIT_SOURCE_INVALID", `path ${subPath} at ${commit.slice(0, 12)} is not a folder`);
    root = inside.realPath;
  }
  const found = await skillFoldersIn(root, checkout, options.signal);
  result.diagnostics.push(...found.diagnostics);
  result.skills = found.skills;
  if (found.skills.length === 0)
    result.diagnostics.push(
      diagnostic(
        "NO_SKILLS",
        "warning",
        `git source ${source.git}: no SKILL.md under ${subPath ?? "the repository root"} at ${commit.slice(0, 12)}`,
      ),
    );
  return result;
}

// --- git, hardened ------------------------------------------------------------------------------

type Outcome = { ok: true } | { ok: false; code: DiagnosticCode; message: string };

class Git {
  private readonly bare: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly url: string,
    private readonly repoDir: string,
    private readonly options: GitSourceOptions,
  ) {
    this.bare = path.join(repoDir, "repo.git");
    this.timeoutMs = options.timeoutMs ?? GIT_SOURCE_TIMEOUT_MS;
  }

  /** The commit `ref` names on the remote: a branch first, then a tag (peeled), then a full ref name. */
  async lsRemote(ref: string): Promise<{ ok: true; commit: string | undefined } | { ok: false; message: string }> {
    await mkdir(this.repoDir, { recursive: true });
    const run = await this.run(["ls-remote", "--", this.url, ref, `${ref}^{}`], {
      cwd: this.repoDir,
      network: true,
      maxOutputBytes: GIT_LS_REMOTE_MAX_BYTES,
    });
    if (run.exitCode !== 0) return { ok: false, message: `git ls-remote failed (${failure(run)})` };
    const refs = new Map<string, string>();
    for (const line of run.stdout.split("\n")) {
      const [sha, name] = line.split("\t");
      if (sha !== undefined && name !== undefined && COMMIT.test(sha)) refs.set(name, sha);
    }
    const commit =
      refs.get(`refs/heads/${ref}`) ??
      refs.get(`refs/tags/${ref}^{}`) ??
      refs.get(`refs/tags/${ref}`) ??
      refs.get(`${ref}^{}`) ??
      refs.get(ref);
    return { ok: true, commit };
  }

  /** Fetches `commit` (depth 1) into the bare repository and checks it out at `final` (temp folder, then rename). */
  async fetchCheckout(commit: string, refName: string | undefined, final: string): Promise<Outcome> {
    await mkdir(this.repoDir, { recursive: true });
    if (!(await isDir(this.bare))) {
      const temp = await tempDirFor(this.bare);
      const init = await this.run(["init", "--bare", "--quiet", "--template=", temp], {
        cwd: this.repoDir,
        isolated: true,
      });
      if (init.exitCode !== 0) {
        await rm(temp, { recursive: true, force: true });
        return { ok: false, code: "GIT_FAILED", message: `git init failed (${failure(init)})` };
      }
      await publishDir(temp, this.bare);
    }
    const fetchArgs = [
      "fetch",
      "--quiet",
      "--depth",
      "1",
      "--no-tags",
      "--no-recurse-submodules",
      "--no-write-fetch-head",
      "--",
    ];
    let fetched = await this.run([...fetchArgs, this.url, commit], { cwd: this.bare, network: true, gitDir: true });
    if (fetched.exitCode !== 0 && refName !== undefined) {
      // A server that refuses fetching by commit id: fetch the ref and check that it still names the commit.
      fetched = await this.run([...fetchArgs.filter((a) => a !== "--no-write-fetch-head"), this.url, refName], {
        cwd: this.bare,
        network: true,
        gitDir: true,
      });
      if (fetched.exitCode === 0) {
        const head = await this.run(["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"], {
          cwd: this.bare,
          gitDir: true,
        });
        if (head.stdout.trim() !== commit)
          return { ok: false, code: "GIT_FAILED", message: `${refName} moved while it was fetched; try again` };
      }
    }
    if (fetched.exitCode !== 0)
      return { ok: false, code: "GIT_FETCH_FAILED", message: `git fetch of ${commit} failed (${failure(fetched)})` };
    const present = await this.run(["cat-file", "-e", `${commit}^{commit}`], { cwd: this.bare, gitDir: true });
    if (present.exitCode !== 0)
      return { ok: false, code: "GIT_FETCH_FAILED", message: `commit ${commit} is not in what the remote sent` };

    const temp = await tempDirFor(final);
    const index = `${temp}.index`;
    try {
      const env = { GIT_INDEX_FILE: index };
      const read = await this.run(["--work-tree", temp, "read-tree", commit], {
        cwd: this.bare,
        gitDir: true,
        isolated: true,
        env,
      });
      const written =
        read.exitCode === 0
          ? await this.run(["--work-tree", temp, "checkout-index", "--all", "--force"], {
              cwd: this.bare,
              gitDir: true,
              isolated: true,
              env,
            })
          : read;
      if (written.exitCode !== 0) {
        await rm(temp, { recursive: true, force: true });
        return { ok: false, code: "GIT_FAILED", message: `checkout of ${commit} failed (${failure(written)})` };
      }
      await publishDir(temp, final);
      return { ok: true };
    } finally {
      await rm(index, { force: true });
    }
  }

  /**
   * Runs git through the hardened `runGit`. `isolated` runs (init, checkout) also ignore the user's and
   * the system's git config, so no filter or template of theirs runs on repository content; network
   * runs keep them (credential helpers, `url.*.insteadOf`).
   */
  private run(
    args: string[],
    how: {
      cwd: string;
      network?: boolean;
      gitDir?: boolean;
      isolated?: boolean;
      env?: Record<string, string>;
      maxOutputBytes?: number;
    },
  ): Promise<ProcessResult> {
    return runGit([...(how.gitDir === true ? ["--git-dir", this.bare] : []), ...args], {
      cwd: how.cwd,
      env: how.env,
      isolated: how.isolated,
      network: how.network,
      timeoutMs: how.network === true ? this.timeoutMs : 60_000,
      maxOutputBytes: how.maxOutputBytes,
      signal: this.options.signal,
    });
  }
}

function failure(run: ProcessResult): string {
  if (run.error !== undefined) return run.error;
  if (run.timedOut) return "timed out";
  const last =
    run.stderr
      .trim()
      .split("\n")
      .filter((l) => l.trim() !== "")
      .slice(-1)[0] ?? "";
  return `exit ${run.exitCode ?? run.exitSignal ?? "?"}${last === "" ? "" : `: ${last.slice(0, 300)}`}`;
}
