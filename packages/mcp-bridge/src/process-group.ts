import { readdirSync, readFileSync } from "node:fs";

const POSIX = process.platform !== "win32";
const HAS_PROC = process.platform === "linux";

/** Whether children get their own process group, so a whole server tree can be signalled. */
export const USE_PROCESS_GROUPS = POSIX;

/**
 * True while `pid` runs. A zombie (exited, not yet reaped by its parent) counts as gone:
 * in containers whose init never reaps orphans, killed grandchildren stay zombies.
 */
export function isProcessAlive(pid: number): boolean {
  if (HAS_PROC) {
    const state = procStat(pid)?.state;
    return state !== undefined && state !== "Z" && state !== "X";
  }
  return signalExists(() => process.kill(pid, 0));
}

/** True while any process of the group led by `pgid` runs (zombies excluded on Linux). */
export function isGroupAlive(pgid: number): boolean {
  if (!POSIX) return isProcessAlive(pgid);
  if (!signalExists(() => process.kill(-pgid, 0))) return false;
  if (!HAS_PROC) return true;
  return processesInGroup(pgid).length > 0;
}

/** Pids of the running (non-zombie) processes in a process group. Linux only; [] elsewhere. */
export function processesInGroup(pgid: number): number[] {
  if (!HAS_PROC) return [];
  const pids: number[] = [];
  for (const entry of safeReaddir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") pids.push(Number(entry));
  }
  return pids;
}

/** Sends `signal` to the whole group led by `pid` (or to `pid` alone without groups). Never throws. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(USE_PROCESS_GROUPS ? -pid : pid, signal);
  } catch {
    // Already gone.
  }
}

const tracked = new Set<number>();
let hooked = false;

/**
 * Remembers a live group so that, if the host exits without closing the bridge, the
 * group is killed on the way out instead of being left behind.
 */
export function trackGroup(pid: number): void {
  tracked.add(pid);
  if (hooked) return;
  hooked = true;
  process.on("exit", () => {
    for (const group of tracked) signalGroup(group, "SIGKILL");
  });
}

/** Forgets a group that {@link trackGroup} remembered. */
export function untrackGroup(pid: number): void {
  tracked.delete(pid);
}

function procStat(pid: number): { state: string; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const pgrp = Number(fields[2]);
  return state === undefined ? undefined : { state, pgrp };
}

function signalExists(send: () => void): boolean {
  try {
    send();
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
