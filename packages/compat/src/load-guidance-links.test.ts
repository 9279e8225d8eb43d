import * as path from "node:path";
import { compareCodePoints } from "@skillctx/core";
import { afterAll, describe, expect, test } from "vitest";
import { loadGuidance } from "./load-guidance.js";
import { copyFixture, gitInit, HAS_GIT, link, put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

describe("the same file reached twice", () => {
  test("CLAUDE.md → AGENTS.md is one skill, agents, with the other path as an alias", async () => {
    const repo = await tempDir();
    await put(repo, "AGENTS.md", "shared guidance\n");
    await link(repo, "CLAUDE.md", "AGENTS.md");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => [s.name, s.content])).toEqual([["agents", "shared guidance\n"]]);
    expect(skills[0]?.metadata["aliases"]).toBe("CLAUDE.md");
    expect(diagnostics).toEqual([]);
  });

  test("AGENT.md → AGENTS.md raises no shadowing warning", async () => {
    const repo = await tempDir();
    await put(repo, "AGENTS.md", "x\n");
    await link(repo, "AGENT.md", "AGENTS.md");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => s.name)).toEqual(["agents"]);
    expect(skills[0]?.metadata["aliases"]).toBe("AGENT.md");
    expect(diagnostics).toEqual([]);
  });

  test.runIf(HAS_GIT)("a nested link to the root file stays the root's always-on skill (in git too)", async () => {
    const repo = await tempDir();
    await put(repo, "AGENTS.md", "root\n");
    await link(repo, "server/AGENTS.md", "../AGENTS.md");
    await gitInit(repo);
    const { skills } = await loadGuidance(repo);
    expect(skills.map((s) => [s.name, s.trigger.type])).toEqual([["agents", "always"]]);
    expect(skills[0]?.metadata["aliases"]).toBe("server/AGENTS.md");
  });

  test("model gating happens before de-duplication: CLAUDE.md → GEMINI.md still gives gemini to a Gemini model", async () => {
    const repo = await tempDir();
    await put(repo, "GEMINI.md", "for both\n");
    await link(repo, "CLAUDE.md", "GEMINI.md");
    expect((await loadGuidance(repo, { model: "gemini-2.5-pro" })).skills.map((s) => s.name)).toEqual(["gemini"]);
    expect((await loadGuidance(repo, { model: "claude-sonnet-4" })).skills.map((s) => s.name)).toEqual(["claude"]);
    expect((await loadGuidance(repo)).skills.map((s) => s.name)).toEqual(["claude"]);
  });

  test("a guidance file that links outside the repository is skipped unless the user scope is trusted", async () => {
    const repo = path.join(await tempDir(), "repo");
    await put(repo, "README.md", "x\n");
    const outside = await put(path.dirname(repo), "elsewhere.md", "outside text\n");
    await link(repo, "AGENTS.md", outside);
    const refused = await loadGuidance(repo);
    expect(refused.skills).toEqual([]);
    expect(refused.diagnostics).toEqual([
      expect.objectContaining({
        code: "GUIDANCE_OUTSIDE_REPOSITORY",
        severity: "warning",
        path: path.join(repo, "AGENTS.md"),
      }),
    ]);
    const trusted = await loadGuidance(repo, { trust: { user: true } });
    expect(trusted.skills.map((s) => [s.name, s.content])).toEqual([["agents", "outside text\n"]]);
  });
});

describe("folders that lead out of the repository", () => {
  test("a .cursor/rules symlink to / or to a folder outside is not walked; the repository's own rules load", async () => {
    const parent = await tempDir();
    const repo = path.join(parent, "repo");
    await put(repo, "AGENTS.md", "root\n");
    await put(repo, "server/.cursor/rules/own.mdc", "---\nalwaysApply: true\n---\nown rule\n");
    await put(parent, "outside/.cursor/rules/leak.mdc", "---\nalwaysApply: true\n---\nLEAKED\n");
    await link(repo, ".cursor/rules", "/");
    await link(repo, "pkg/.cursor", path.join(parent, "outside/.cursor"));
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => s.name)).toEqual(["agents", "cursor:server:own"]);
    expect(JSON.stringify(skills)).not.toContain("LEAKED");
    expect(diagnostics.map((d) => d.code)).toContain("PATH_OUTSIDE_ROOT");
  });
});

describe.runIf(HAS_GIT)("model gating", async () => {
  const repo = await copyFixture("monorepo");
  await put(repo, "GEMINI.md", "gemini root\n");
  await put(repo, "packages/api/server/GEMINI.md", "gemini nested\n");
  if (HAS_GIT) await gitInit(repo);
  const cwd = path.join(repo, "packages/api");
  const kinds = async (model?: string) => {
    const { skills } = await loadGuidance(cwd, model === undefined ? {} : { model });
    return skills.map((s) => s.name).filter((n) => /^(claude|gemini)/.test(n));
  };

  test("no model or an unknown model keeps all", async () => {
    const all = ["claude", "gemini", "claude:packages/api", "gemini:packages/api/server"];
    expect(await kinds()).toEqual(all);
    expect(await kinds("my-own-model")).toEqual(all);
  });

  test("Claude models keep claude guidance at every level, Gemini models gemini, others neither", async () => {
    expect(await kinds("anthropic/claude-sonnet-4")).toEqual(["claude", "claude:packages/api"]);
    expect(await kinds("gemini-2.5-pro")).toEqual(["gemini", "gemini:packages/api/server"]);
    expect(await kinds("openai/gpt-4o")).toEqual([]);
  });

  test("gating never touches AGENTS.md or rules", async () => {
    const withModel = (await loadGuidance(cwd, { model: "gpt-4o" })).skills.map((s) => s.name);
    expect(withModel).toContain("agents");
    expect(withModel).toContain("cursor:root-always");
  });
});

describe("deterministic order", () => {
  test("the same files created in another order give the same skills in the same order: folder, then name, by code point", async () => {
    const files = [
      "b/AGENTS.md",
      "B/CLAUDE.md",
      "a/GEMINI.md",
      "é/AGENTS.md",
      "a-b/AGENTS.md",
      "a/b/AGENTS.md",
      "Z/AGENTS.md",
      "AGENTS.md",
      ".cursorrules",
    ];
    const make = async (order: string[]) => {
      const repo = await tempDir();
      for (const file of order) await put(repo, file, `${file}\n`);
      return (await loadGuidance(repo)).skills.map((s) => s.name);
    };
    const first = await make(files);
    const second = await make([...files].reverse());
    expect(second).toEqual(first);
    // Reference order, computed here from the folder and the name.
    const folder = (name: string) => (name.includes(":") ? name.slice(name.indexOf(":") + 1) : "");
    const expected = [...first].sort((x, y) => compareCodePoints(folder(x), folder(y)) || compareCodePoints(x, y));
    expect(first).toEqual(expected);
    expect(first).toEqual([
      "agents",
      "cursorrules",
      "claude:B",
      "agents:Z",
      "gemini:a",
      "agents:a-b",
      "agents:a/b",
      "agents:b",
      "agents:é",
    ]);
  });
});

describe("links to nothing", () => {
  test("a dangling AGENTS.md symlink is a warning; the other files load", async () => {
    const repo = await tempDir();
    await link(repo, "AGENTS.md", "missing-target.md");
    await put(repo, "CLAUDE.md", "claude\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => s.name)).toEqual(["claude"]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "GUIDANCE_BROKEN_LINK", path: path.join(repo, "AGENTS.md") }),
    ]);
  });
});
