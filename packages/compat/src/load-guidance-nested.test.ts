import { readFile, rm } from "node:fs/promises";
import * as path from "node:path";
import type { Skill } from "@skillctx/core";
import { compileGlob } from "@skillctx/core/internal";
import { afterAll, describe, expect, test } from "vitest";
import { loadGuidance } from "./load-guidance.js";
import { copyFixture, gitInit, HAS_GIT, put, removeTempDirs } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

// The one glob matcher (core glob/), in micromatch's call shape.
const micromatch = {
  isMatch: (p: string, globs: string[]) =>
    globs.some((glob) => {
      const compiled = compileGlob(glob);
      return compiled.ok && compiled.glob.test(p);
    }),
};

const globsOf = (skills: Skill[], name: string) => {
  const trigger = skills.find((s) => s.name === name)?.trigger;
  return trigger?.type === "path" ? trigger.globs : undefined;
};

// The nested fixture plus what git cannot hold in this monorepo: node_modules and an ignored folder.
async function nestedRepo(): Promise<string> {
  const repo = await copyFixture("nested");
  await put(repo, "node_modules/dep/AGENTS.md", "dependency guidance: never read\n");
  await put(repo, ".gitignore", "generated/\n");
  await put(repo, "generated/AGENTS.md", "ignored by git\n");
  return repo;
}

const NESTED_NAMES = [
  "agents",
  // A dot folder's AGENTS.md guides that folder, as Claude Code and Codex read it when they work there.
  "agents:.hidden",
  "agents:app/[id]",
  "gemini:pkg/sub",
  "agents:server",
  "claude:server/api",
  "cursor:web:always",
  "cursor:web:described",
  "cursor:web:manual",
  "cursor:web:tsx",
];

describe.runIf(HAS_GIT)("nested guidance below cwd, in a git work tree", async () => {
  const repo = await nestedRepo();
  if (HAS_GIT) await gitInit(repo);
  await put(repo, "late/CLAUDE.md", "untracked but not ignored\n");
  const { skills, diagnostics } = await loadGuidance(repo);

  test("folders below cwd become path rules named kind:folder, root first, by folder then name", () => {
    expect(skills.map((s) => s.name)).toEqual([...NESTED_NAMES.slice(0, 3), "claude:late", ...NESTED_NAMES.slice(3)]);
    expect(diagnostics).toEqual([]);
  });

  test("ignored folders and node_modules stay out; dot folders and untracked files are in", () => {
    const paths = skills.map((s) => s.source.path ?? "");
    expect(paths.some((p) => p.includes("generated") || p.includes("node_modules"))).toBe(false);
    expect(paths).toContain(path.join(repo, "late/CLAUDE.md"));
    expect(paths).toContain(path.join(repo, ".hidden/AGENTS.md"));
  });

  test("a nested file's rule matches its folder and nothing else", () => {
    const server = globsOf(skills, "agents:server") ?? [];
    expect(server).toEqual(["server/**"]);
    expect(micromatch.isMatch("server/handlers/user.ts", server)).toBe(true);
    expect(micromatch.isMatch("serverless/x.ts", server)).toBe(false);
    expect(micromatch.isMatch("src/main.ts", server)).toBe(false);
    const dynamic = globsOf(skills, "agents:app/[id]") ?? [];
    expect(micromatch.isMatch("app/[id]/page.tsx", dynamic)).toBe(true);
    expect(micromatch.isMatch("app/i/page.tsx", dynamic)).toBe(false);
  });

  test("nested rules carry their text, folder, description and location", async () => {
    const skill = skills.find((s) => s.name === "agents:server");
    expect(skill).toMatchObject({
      content: await readFile(path.join(repo, "server/AGENTS.md"), "utf8"),
      dir: path.join(repo, "server"),
      metadata: { kind: "agents", folder: "server", activation: "path" },
      source: { kind: "compat", format: "guidance", scope: "project", path: path.join(repo, "server/AGENTS.md") },
    });
    expect(skill?.description).toContain("server/");
  });

  test("nested .cursor/rules: always → the folder, globs → below the folder, description → catalog, none → by name", () => {
    expect(globsOf(skills, "cursor:web:always")).toEqual(["web/**"]);
    expect(globsOf(skills, "cursor:web:tsx")).toEqual(["web/src/**/*.tsx"]);
    expect(skills.find((s) => s.name === "cursor:web:described")).toMatchObject({
      trigger: { type: "on-demand" },
      description: "Web accessibility checklist",
    });
    expect(skills.find((s) => s.name === "cursor:web:manual")).toMatchObject({
      trigger: { type: "command", prefix: "@" },
    });
  });

  test("includeNested: false reads only cwd (and its parents)", async () => {
    const only = await loadGuidance(repo, { includeNested: false });
    expect(only.skills.map((s) => s.name)).toEqual(["agents"]);
  });

  test("a file deleted from the work tree but still in the index is simply absent", async () => {
    const copy = await nestedRepo();
    await gitInit(copy);
    await rm(path.join(copy, "server/AGENTS.md"));
    const { skills: after, diagnostics: found } = await loadGuidance(copy);
    expect(after.map((s) => s.name)).not.toContain("agents:server");
    expect(found).toEqual([]);
  });
});

describe("nested guidance without git", () => {
  test("a walk finds the same files, except that .gitignore does not apply", async () => {
    const repo = await nestedRepo();
    const { skills, diagnostics } = await loadGuidance(repo);
    // Without git the walk does not enter dot folders (a .venv or .cache can hold 100,000 files).
    expect(skills.map((s) => s.name)).toEqual([
      NESTED_NAMES[0],
      NESTED_NAMES[2],
      "agents:generated",
      ...NESTED_NAMES.slice(3),
    ]);
    expect(diagnostics).toEqual([]);
  });
});

describe.runIf(HAS_GIT)("cwd below the git root (fixtures/compat/monorepo)", async () => {
  const repo = await copyFixture("monorepo");
  if (HAS_GIT) await gitInit(repo);
  const cwd = path.join(repo, "packages/api");
  const { skills, diagnostics } = await loadGuidance(cwd);

  test("each level from the root down to cwd applies, root first, labelled with its folder; then nested rules", () => {
    expect(skills.map((s) => [s.name, s.trigger.type])).toEqual([
      ["agents", "always"],
      ["claude", "always"],
      ["cursor:api-src", "path"],
      ["cursor:docs", "path"],
      ["cursor:root-always", "always"],
      ["cursor:tests", "path"],
      ["agents:packages", "always"],
      ["agents:packages/api", "always"],
      ["claude:packages/api", "always"],
      ["cursor:packages/api:handlers", "path"],
      ["agents:packages/api/server", "path"],
    ]);
  });

  test("texts come from the right files; a sibling package is not read", async () => {
    expect(skills.find((s) => s.name === "agents")?.content).toBe(await readFile(path.join(repo, "AGENTS.md"), "utf8"));
    expect(skills.find((s) => s.name === "agents:packages/api")?.content).toBe(
      await readFile(path.join(cwd, "AGENTS.md"), "utf8"),
    );
    expect(skills.some((s) => s.source.path?.includes("packages/web"))).toBe(false);
  });

  test("globs are rewritten relative to cwd (where path triggers match)", () => {
    expect(globsOf(skills, "cursor:api-src")).toEqual(["src/**/*.ts"]);
    expect(globsOf(skills, "cursor:tests")).toEqual(["**/*.test.ts"]);
    expect(globsOf(skills, "cursor:packages/api:handlers")).toEqual(["src/handlers/**"]);
    expect(globsOf(skills, "agents:packages/api/server")).toEqual(["server/**"]);
  });

  test("a root rule that only covers files beside cwd stays a path rule, matched from the root", () => {
    // The agent can still edit ../../docs from packages/api: Cursor and Claude Code match a rule's globs
    // from the folder that holds its rules folder, not from cwd.
    expect(skills.find((s) => s.name === "cursor:docs")?.trigger).toEqual({
      type: "path",
      globs: ["docs/**"],
      base: repo,
    });
    expect(diagnostics).toEqual([]);
  });

  test("the same folder without git is its own root", async () => {
    const plain = await copyFixture("monorepo");
    const result = await loadGuidance(path.join(plain, "packages/api"));
    expect(result.skills.map((s) => s.name)).toEqual(["agents", "claude", "cursor:handlers", "agents:server"]);
  });
});
