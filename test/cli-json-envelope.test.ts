// Issue 37: every command's --json is one envelope { command, version, data, diagnostics }, described
// by docs/cli-json.schema.json; each command runs here on a real repository and is validated against it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt, ROOT, runCli } from "./helpers/cli.js";

const tempDir = useTempDirs("cli-json");
beforeAll(assertBuilt);

const schema = JSON.parse(readFileSync(path.join(ROOT, "docs/cli-json.schema.json"), "utf8")) as object;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

describe("--json envelope (built CLI)", () => {
  it("every command's --json validates against docs/cli-json.schema.json, with its own command name", async () => {
    const cwd = await tempDir({
      ".agents/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms.\n---\nBody of pdf.\n",
      "AGENTS.md": "# Rules\nRun the tests.\n",
      "skills.json": JSON.stringify({ sources: [] }),
    });
    execFileSync("git", ["init", "-q"], { cwd });
    const skill = path.join(cwd, ".agents/skills/pdf/SKILL.md");
    const runs: Array<[string, string[]]> = [
      ["list", ["list", "--cwd", cwd]],
      ["catalog", ["catalog", "--cwd", cwd]],
      ["build", ["build", "--cwd", cwd, "-m", "fill the pdf"]],
      ["context", ["context", "--cwd", cwd, "--touch", "src/a.ts"]],
      ["render", ["render", skill, "--cwd", cwd]],
      ["validate", ["validate", "--cwd", cwd]],
      ["search", ["search", "fill a pdf form", "--cwd", cwd]],
      ["sync", ["sync", "--cwd", cwd, "--offline"]],
      ["help", ["help"]],
    ];
    for (const [command, args] of runs) {
      const run = await runCli([...args, "--json"], { home: path.join(cwd, ".no-home") });
      expect(run.code, `${command}: ${run.stderr}`).toBe(0);
      const value = JSON.parse(run.stdout) as { command: string; version: string };
      const valid = validate(value);
      expect(validate.errors ?? [], command).toEqual([]);
      expect(valid).toBe(true);
      expect(value.command).toBe(command);
      expect(value.version).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it("a document that breaks the contract fails the schema (the test can fail)", () => {
    expect(validate({ command: "list", version: "1.0.0", data: { skills: [{ name: "x" }] }, diagnostics: [] })).toBe(
      false,
    );
    expect(validate({ skills: [], diagnostics: [] })).toBe(false);
  });
});
