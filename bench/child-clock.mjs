// The clocks of the fresh-process bench children (cold-start-child.mjs, peers-child.mjs): CPU time of the
// process so far (user + system, every thread) and the rounding of every figure they print.

/** CPU time of this process so far, in ms (not rounded). */
export function cpuMs() {
  const cpu = process.cpuUsage();
  return (cpu.user + cpu.system) / 1000;
}

/** `ms` to one decimal. */
export function round(ms) {
  return Math.round(ms * 10) / 10;
}
