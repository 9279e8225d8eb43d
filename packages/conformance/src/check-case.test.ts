import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaseRun } from "./adapter.js";
import type { Case } from "./case-schema.js";
import { checkCase } from "./check-case.js";

let repo = "";
beforeAll(async () => {
  repo = await mkdtemp(path.join(tmpdir(), "conformance-check-"));
  await writeFile(path.join(repo, "AGENTS.md"), "# Project\n\nRun the tests with make check.\n");
  await writeFile(path.join(repo, "GEMINI.md"), "Only Gemini reads this long line.\n");
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

const runOf = (expect: Case["expect"]): CaseRun => ({
  slug: "x",
  repo,
  cwd: repo,
  home: repo,
  case: { id: "c", rule: "agents-md-chain", source: "https://example.com/docs", expect },
});

describe("checkCase", () => {
  it("holds when every expectation the observation can show held", async () => {
    const run = runOf({ guidance: ["AGENTS.md"], guidanceAbsent: ["GEMINI.md"], skills: ["a"], skillsAbsent: ["b"] });
    const result = await checkCase(run, {
      system: "Run the tests with make check.",
      guidance: ["AGENTS.md"],
      skills: [{ name: "a" }],
    });
    expect(result).toMatchObject({ status: "holds", failures: [] });
  });

  it("fails with what differed", async () => {
    const run = runOf({
      guidance: ["AGENTS.md"],
      guidanceAbsent: ["GEMINI.md"],
      skills: ["a"],
      pathRules: ["x/AGENTS.md"],
    });
    const result = await checkCase(run, {
      system: "Only Gemini reads this long line.",
      guidance: ["GEMINI.md"],
      skills: [],
      pathRules: [],
    });
    expect(result.status).toBe("fails");
    expect(result.failures).toEqual([
      "AGENTS.md is always-on guidance",
      "GEMINI.md is not always-on guidance",
      "GEMINI.md's text is not in the system prompt",
      "x/AGENTS.md is a path rule",
      "skill a in the catalog",
    ]);
  });

  it("counts a file as guidance by its text only when the adapter says so", async () => {
    const run = runOf({ guidance: ["AGENTS.md"] });
    const system = "# Project\nRun the tests with make check.";
    expect((await checkCase(run, { system, guidance: [] })).status).toBe("fails");
    expect((await checkCase(run, { system, guidance: [], guidanceByText: true })).status).toBe("holds");
  });

  it("guidanceOnce counts the file's first distinctive line", async () => {
    const run = runOf({ guidanceOnce: ["AGENTS.md"] });
    const line = "Run the tests with make check.";
    expect((await checkCase(run, { system: line })).status).toBe("holds");
    const twice = await checkCase(run, { system: `${line}\n${line}` });
    expect(twice.failures).toEqual(["AGENTS.md's text exactly once in the system prompt (found 2)"]);
  });

  it("is not supported when the loader has none of the outputs, or says so; partly checked cases note the rest", async () => {
    const run = runOf({ pathRules: ["AGENTS.md"], diagnostics: ["GUIDANCE_EMPTY"] });
    expect(await checkCase(run, { skills: [] })).toMatchObject({ status: "unsupported", failures: [] });
    expect(await checkCase(run, { unsupported: "no rules" })).toMatchObject({
      status: "unsupported",
      notes: ["no rules"],
    });
    const partly = await checkCase(runOf({ skills: ["a"], diagnostics: ["X"] }), { skills: [{ name: "a" }] });
    expect(partly).toMatchObject({ status: "holds", notes: ["diagnostics: the loader has no diagnostics"] });
  });
});
