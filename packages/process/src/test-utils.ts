// Helpers shared by this package's tests (excluded from the build).
import { readdirSync, readFileSync } from "node:fs";

let counter = 0;

/** A `sleep` duration no other process uses, so the process table can be searched for it. */
export function uniqueSleep(): string {
  return `${4000 + (process.pid % 1000)}.${String(++counter).padStart(3, "0")}${Date.now() % 1000}`;
}

/** Command lines of the live (non-zombie) processes whose arguments contain `marker`, from /proc. */
export function liveProcessesWith(marker: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.includes(marker) && state !== "Z" && state !== "X") found.push(`${entry}: ${cmdline}`);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Pids of the live processes whose arguments contain `marker`. */
export function pidsWith(marker: string): number[] {
  return liveProcessesWith(marker).map((line) => Number(line.slice(0, line.indexOf(":"))));
}

/** Kills (SIGKILL) every live process whose arguments contain `marker`: the clean-up of escaped daemons. */
export function killAllWith(marker: string): void {
  for (const pid of pidsWith(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Polls until `check` is true; throws after `ms`. */
export async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Pids of the live `sleep <duration>` processes themselves (not the shells whose scripts mention them). */
export function sleepers(duration: string): number[] {
  return liveProcessesWith(duration)
    .filter((line) => line.endsWith(`: sleep ${duration} `))
    .map((line) => Number(line.slice(0, line.indexOf(":"))));
}

let daemons = 0;

/**
 * A shell snippet that starts `sleep <duration>` in a new session (out of reach of any group kill, holding
 * the command's stdout and stderr unless `redirect` says otherwise) and waits until it is there.
 */
export function daemon(duration: string, redirect = ""): string {
  const flag = `/tmp/skillctx-daemon-${process.pid}-${++daemons}`;
  return `setsid sh -c 'touch ${flag}; exec sleep ${duration}' ${redirect} & while [ ! -e ${flag} ]; do sleep 0.01; done; rm -f ${flag}; `;
}
