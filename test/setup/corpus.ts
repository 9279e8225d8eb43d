import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Where the real-world corpus (246 published skills) is looked for, in order: `SKILLCTX_CORPUS` alone
 * when it is set; else `../shared/corpus` beside the clone, then `.corpus/` in it (what `pnpm corpus` fetches).
 */
export function corpusCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const given = env["SKILLCTX_CORPUS"];
  if (given) return [path.resolve(given)];
  return [path.resolve(ROOT, "../shared/corpus"), path.join(ROOT, ".corpus")];
}

/** The first candidate that exists, else the first candidate (which does not). */
export function findCorpus(env: NodeJS.ProcessEnv = process.env): { dir: string; found: boolean } {
  const candidates = corpusCandidates(env);
  const dir = candidates.find((c) => existsSync(c));
  return dir ? { dir, found: true } : { dir: candidates[0]!, found: false };
}

/** The corpus folder for this process (the global setup below passes it to every test worker). */
export const CORPUS = findCorpus().dir;
/** Whether it exists: absent on a fresh clone, where the tests that need it are skipped, and only they. */
export const HAS_CORPUS = existsSync(CORPUS);

/**
 * Vitest global setup. Sets `SKILLCTX_CORPUS` to the folder found, so that every test file (each reads
 * `SKILLCTX_CORPUS`) uses the same one; prints one line when the corpus tests are skipped. CI sets
 * `SKILLCTX_REQUIRE_CORPUS=1` to fail instead.
 */
export default function setup(): void {
  const { dir, found } = findCorpus();
  const looked = corpusCandidates().join(", ");
  process.env["SKILLCTX_CORPUS"] = dir;
  if (found) return;
  const note = `corpus tests skipped: no corpus at ${looked}. Run \`pnpm corpus\` (fetches it into .corpus/) or set SKILLCTX_CORPUS to a copy of it to run them.`;
  if (process.env["SKILLCTX_REQUIRE_CORPUS"] === "1") throw new Error(`SKILLCTX_REQUIRE_CORPUS=1 but ${note}`);
  console.log(note);
}
