/**
 * `node:child_process`, loaded on the first spawn. It brings `net`, `dgram` and the stream internals
 * with it (about 2 ms of a cold start), which a process that only scans and lists skills never needs.
 * Every spawn of the package goes through here.
 */
export function childProcess(): typeof import("node:child_process") {
  return process.getBuiltinModule("node:child_process");
}
