/** Inputs shared by the benchmarks: the real-skills corpus (or generated text without it) and a seeded random generator. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { findCorpus } from "../test/setup/corpus.js";

/** The 246 published skills: `SKILLCTX_CORPUS`, else `../shared/corpus` beside the clone, else `.corpus/` (absent on a fresh clone). */
export const CORPUS = findCorpus().dir;

/** Whether the corpus is there; without it the benchmarks run on generated text and say so. */
export const HAS_CORPUS = existsSync(CORPUS);
if (!HAS_CORPUS) console.log(`[bench] no corpus at ${CORPUS}: generated text stands in for the published skills`);

/** Every SKILL.md below `dir`, in code-point order of path, so each run reads the same inputs; [] without the corpus. */
export function corpusFiles(dir: string = CORPUS): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return corpusFiles(full);
      return entry.name === "SKILL.md" ? [full] : [];
    });
}

/** The descriptions of the corpus skills (246), or 246 generated ones of similar length. */
export function corpusDescriptions(): string[] {
  const files = corpusFiles();
  if (files.length === 0) {
    const random = mulberry32(11);
    return Array.from(
      { length: 246 },
      (_, i) =>
        `Skill ${i}: ${generatedProse(random, 45)}. Use it when the task asks for ${generatedProse(random, 6)}.`,
    );
  }
  return files
    .map((file) => {
      const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(file, "utf8").replace(/\r\n/g, "\n"))?.[1] ?? "";
      // Enough of YAML for a benchmark: a plain, quoted or block-scalar description.
      const match = /^description:\s*(?:[>|][-+]?\s*\n((?:[ \t]+.*\n?)+)|(.*))/m.exec(front);
      return (match?.[1] ?? match?.[2] ?? "")
        .replace(/^["']|["']$/g, "")
        .replace(/\s+/g, " ")
        .trim();
    })
    .filter((text) => text !== "");
}

/** The bodies of the corpus skills, or 246 generated bodies (about 6 KB of prose each). */
export function corpusBodies(): string[] {
  const files = corpusFiles();
  if (files.length === 0) {
    const random = mulberry32(13);
    return Array.from({ length: 246 }, () =>
      Array.from({ length: 12 }, () => `${generatedProse(random, 80)}.\n`).join("\n"),
    );
  }
  return files.map((file) => readFileSync(file, "utf8").replace(/^---[\s\S]*?\n---\n/, ""));
}

const WORDS = (
  "skill agent repository build deploy test review document analyse convert extract format render query schema " +
  "python typescript docker kubernetes database migration security audit fuzzing coverage release changelog " +
  "spreadsheet presentation image chart report summary research paper protein molecule genome sequence model " +
  "prompt context token budget catalog resource script server client request response error retry timeout cache"
).split(" ");

function generatedProse(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(" ");
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
