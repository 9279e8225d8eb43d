/** Inputs shared by the benchmarks: the real-skills corpus and a seeded random generator. */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The 246 published skills beside the project (read-only). */
export const CORPUS = fileURLToPath(new URL("../../shared/corpus/", import.meta.url));

/** Every SKILL.md below `dir`, in code-point order of path, so each run reads the same inputs. */
export function corpusFiles(dir: string = CORPUS): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return corpusFiles(full);
      return entry.name === "SKILL.md" ? [full] : [];
    });
}

/** A small deterministic PRNG (the public-domain mulberry32): the same seed gives the same data. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
