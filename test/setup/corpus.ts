import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where the real-world corpus (246 published skills) is: `SKILLCTX_CORPUS`, else `../shared/corpus`
 * beside the clone. A fresh clone has neither; the tests that need it are then skipped, and only they.
 */
export const CORPUS = path.resolve(process.env["SKILLCTX_CORPUS"] ?? fileURLToPath(new URL("../../../shared/corpus/", import.meta.url)));

/** Vitest global setup: one line when the corpus tests are skipped; CI sets SKILLCTX_REQUIRE_CORPUS=1 to fail instead. */
export default function setup(): void {
  if (existsSync(CORPUS)) return;
  const note = `corpus tests skipped: no corpus at ${CORPUS}. Set SKILLCTX_CORPUS to a copy of the skills corpus (see README, "Tests") to run them.`;
  if (process.env["SKILLCTX_REQUIRE_CORPUS"] === "1") throw new Error(`SKILLCTX_REQUIRE_CORPUS=1 but ${note}`);
  console.log(note);
}
