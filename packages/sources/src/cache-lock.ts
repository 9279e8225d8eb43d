/**
 * A lock on one folder of the remote-source cache that holds between processes: two `skillctx sync`
 * runs (or two agents) sharing a cache take turns on a git source's repository instead of colliding on
 * git's own `shallow.lock` / `index.lock`. proper-lockfile (https://github.com/moxystudio/node-proper-lockfile)
 * takes it with an atomic `mkdir` of `<folder>.lock`, refreshes the lock's mtime while the work runs,
 * and treats a lock left unrefreshed for CACHE_LOCK_STALE_MS as stale (its owner crashed or was killed)
 * and takes it over. Within one process, oneAtATime keeps the turns, so a process never polls its own
 * lock. See docs/decisions.md ("Cache locks between processes").
 */
import { mkdir } from "node:fs/promises";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { errorText } from "@skillctx/core/internal";
import lockfile from "proper-lockfile";
import { CACHE_LOCK_STALE_MS, CACHE_LOCK_WAIT_MS } from "./limits.js";
import { oneAtATime } from "./one-at-a-time.js";

/** What {@link withCacheLock} gave: the work's result, or why the lock was not taken (the work did not run). */
export type Locked<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Runs `work` holding the lock of `folder` (`<folder>.lock`), one holder at a time across processes.
 * Waits up to `waitMs` for a live holder, with a growing pause between tries; takes over a stale lock.
 */
export function withCacheLock<T>(
  folder: string,
  work: () => Promise<T>,
  options: { signal?: AbortSignal | undefined; waitMs?: number | undefined } = {},
): Promise<Locked<T>> {
  return oneAtATime(folder, async () => {
    const lockPath = `${folder}.lock`;
    const release = await acquire(folder, lockPath, options.waitMs ?? CACHE_LOCK_WAIT_MS, options.signal);
    if (typeof release === "string") return { ok: false, message: release };
    try {
      return { ok: true, value: await work() };
    } finally {
      // Released already when the lock was compromised (taken over after our refresh failed).
      await release().catch(() => {});
    }
  });
}

// The release function, or the message of why the lock could not be had.
async function acquire(
  folder: string,
  lockPath: string,
  waitMs: number,
  signal: AbortSignal | undefined,
): Promise<(() => Promise<void>) | string> {
  await mkdir(path.dirname(folder), { recursive: true });
  const deadline = Date.now() + waitMs;
  let pause = 20;
  for (;;) {
    signal?.throwIfAborted();
    try {
      return await lockfile.lock(folder, {
        lockfilePath: lockPath,
        realpath: false,
        stale: CACHE_LOCK_STALE_MS,
        retries: 0,
        // Our refresh failed or another process took the lock as stale (this process stalled past
        // CACHE_LOCK_STALE_MS): the work goes on; git's own lock files guard what is left.
        onCompromised: () => {},
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED")
        return `the cache lock ${lockPath} could not be taken: ${errorText(error)}`;
      if (Date.now() >= deadline)
        return `the cache lock ${lockPath} is held by another process (waited ${Math.round(waitMs / 1000)} s)`;
      await sleep(pause, undefined, { signal });
      pause = Math.min(pause * 2, 500);
    }
  }
}
