import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandDiagnostics } from "./command-diagnostics.js";
import { renderCommands } from "./render-commands.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "skillctx-diag-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("commandDiagnostics", () => {
  it("warns about each command that did not render its output, at its file line", async () => {
    const body = ["ok !`echo fine`", "fail !`exit 2`", "slow !`sleep 5`", "big !`yes`"].join("\n");
    const { runs } = await renderCommands(body, { cwd, timeoutMs: 300, maxOutputBytes: 100 });
    const diagnostics = commandDiagnostics(runs, { path: "skills/x/SKILL.md", lineOffset: 4 });
    expect(diagnostics.map((d) => [d.code, d.line, d.severity, d.path])).toEqual([
      ["COMMAND_FAILED", 6, "warning", "skills/x/SKILL.md"],
      ["COMMAND_TIMEOUT", 7, "warning", "skills/x/SKILL.md"],
      ["COMMAND_OUTPUT_TRUNCATED", 8, "warning", "skills/x/SKILL.md"],
    ]);
    expect(diagnostics[0]?.message).toContain("exited with code 2");
  });

  it("warns about commands not run for lack of trust", async () => {
    const { runs } = await renderCommands("!`date`", { cwd, scope: "project" });
    expect(commandDiagnostics(runs)).toEqual([
      { code: "COMMAND_NOT_RUN", severity: "warning", message: "Command not run (untrusted source): date", line: 1 },
    ]);
  });

  it("adds one COMMANDS_LIMITED warning, at the first span left as written, when given the whole result", async () => {
    const body = ["intro", "!`a` !`b`", "!`c`", "!`d`"].join("\n");
    const result = await renderCommands(body, { cwd, scope: "project", maxCommands: 2 });
    const diagnostics = commandDiagnostics(result, { path: "SKILL.md", lineOffset: 3 });
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["COMMAND_NOT_RUN", 5],
      ["COMMAND_NOT_RUN", 5],
      ["COMMANDS_LIMITED", 6],
    ]);
    expect(diagnostics[2]?.message).toBe(
      "skillctx: 2 command spans were left as written, not rendered: at most 2 are rendered per text (maxCommands).",
    );
    expect(commandDiagnostics(result.runs).map((d) => d.code)).toEqual(["COMMAND_NOT_RUN", "COMMAND_NOT_RUN"]);
  });
});
