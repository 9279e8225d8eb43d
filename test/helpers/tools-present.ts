// Tests that need a program the README does not promise (python3, git, haproxy) run where it is on PATH and are skipped
// elsewhere, as the corpus tests are without the corpus: test/setup/tools.ts prints one line naming each missing
// program. CI has python3, git and haproxy (.ci/run installs the Debian package); it sets SKILLCTX_REQUIRE_TOOLS=1 so that a missing one fails the run.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";

/** The programs that some tests need beyond Node. */
export type Tool = "python3" | "uv" | "git" | "haproxy";

const found = new Map<string, boolean>();

/** Whether `name` is an executable file in a folder of PATH (looked up once per PATH, without running it). */
export function hasTool(name: Tool, env: NodeJS.ProcessEnv = process.env): boolean {
  const pathVar = env["PATH"] ?? "";
  const key = `${name}\0${pathVar}`;
  let present = found.get(key);
  if (present === undefined) {
    present = pathVar.split(path.delimiter).some((dir) => dir !== "" && isExecutableFile(path.join(dir, name)));
    found.set(key, present);
  }
  return present;
}

/** The one line printed when the tests that need `tool` are skipped. */
export function skipNote(tool: Tool): string {
  return `${tool} tests skipped: ${tool} is not on PATH. Install ${tool} to run them.`;
}

/**
 * vitest's `it`, run only where `tool` is on PATH (`itWithTool("python3")("calls main()", ...)`; `.each` works).
 * Elsewhere the test is reported skipped, and the setup's note names the tool.
 */
export function itWithTool(tool: Tool): ReturnType<typeof it.runIf> {
  return it.runIf(hasTool(tool));
}

/** vitest's `describe`, run only where `tool` is on PATH (see {@link itWithTool}). */
export function describeWithTool(tool: Tool): ReturnType<typeof describe.runIf> {
  return describe.runIf(hasTool(tool));
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
