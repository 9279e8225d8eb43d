// The statistics of the fresh-process benches (cold-start.bench.ts, peers.bench.ts).
import { cpus, loadavg } from "node:os";

/**
 * The median of `values` without the first (the warm-up iteration's sample: a cold disk cache, and the
 * run that writes the persistent caches). NaN when nothing is left.
 */
export function medianAfterWarmup(values: readonly number[]): number {
  const sorted = values.slice(1).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The machine's load: "load average 1.2 / 0.9 / 0.7 on 2 CPUs", to read a run's timings by. */
export function loadText(): string {
  return `load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ")} on ${cpus().length} CPUs`;
}
