/**
 * `node:crypto`, loaded on first use: about 17 internal modules (3–4 ms of a cold start) that
 * creating a context and listing its skills never need. Hashes (message fingerprints, digests, tool
 * names) and ids of every skillctx package come from here.
 */
import type { Hash } from "node:crypto";

let lib: typeof import("node:crypto") | undefined;

// Kept after the first call: message fingerprints hash on every step.
function crypto(): typeof import("node:crypto") {
  lib ??= process.getBuiltinModule("node:crypto");
  return lib;
}

/** `crypto.createHash(algorithm)`. */
export function createHash(algorithm: string): Hash {
  return crypto().createHash(algorithm);
}

/** `crypto.randomUUID()`. */
export function randomUUID(): string {
  return crypto().randomUUID();
}

/** `crypto.randomBytes(size)`. */
export function randomBytes(size: number): Buffer {
  return crypto().randomBytes(size);
}
