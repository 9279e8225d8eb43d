import { hasTool, skipNote, type Tool } from "../helpers/tools-present.js";

/**
 * The tools whose tests are skipped when absent. uv is not among them: the PEP 723 tests run the real uv when it
 * is on PATH and python3 with a stand-in uv otherwise, so they never skip for it.
 */
const SKIPPED_WITHOUT: readonly Tool[] = ["python3", "git", "haproxy"];

/**
 * Vitest global setup. Prints one line per missing tool (its tests are skipped, as the corpus tests are without
 * the corpus) and passes the list to the test workers in `SKILLCTX_MISSING_TOOLS` (comma-separated), for the
 * packages' own tests, which cannot import test/helpers. CI sets `SKILLCTX_REQUIRE_TOOLS=1` to fail instead.
 */
export default function setup(): void {
  const missing = SKIPPED_WITHOUT.filter((tool) => !hasTool(tool));
  process.env["SKILLCTX_MISSING_TOOLS"] = missing.join(",");
  if (missing.length === 0) return;
  const notes = missing.map(skipNote);
  if (process.env["SKILLCTX_REQUIRE_TOOLS"] === "1") throw new Error(`SKILLCTX_REQUIRE_TOOLS=1 but ${notes.join(" ")}`);
  for (const note of notes) console.log(note);
}
