import { afterAll, describe, expect, test } from "vitest";
import { compareCodePoints } from "@skillctx/core";
import { listNestedGuidance } from "./nested-scan.js";
import { git, gitInit, HAS_GIT, link, put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

const sorted = (paths: string[]) => [...paths].sort(compareCodePoints);

async function layout(root: string): Promise<void> {
  await put(root, "AGENTS.md", "root\n");
  await put(root, "server/AGENTS.md", "committed\n");
  await put(root, "server/api/CLAUDE.md", "owner's name\n");
  // Class 3 of issue 24: an API page and a user page, not AGENTS.md / GEMINI.md (owners match exact names).
  await put(root, "docs/api/agent.md", "API reference page\n");
  await put(root, "docs/realtime/gemini.md", "a page about Gemini\n");
  // Class 6: a dot folder's CLAUDE.md guides it; an agent's own folder's is that agent's, not a folder rule.
  await put(root, ".github/workflows/CLAUDE.md", "workflow guidance\n");
  await put(root, "web/.claude/CLAUDE.md", "Claude Code's memory file of web/, not a path rule\n");
  await put(root, "web/.cursor/rules/tsx.mdc", "rule\n");
  await put(root, "web/.cursor/rules/nested/deep.MDC", "rule\n");
  await put(root, "web/.cursor/other/x.mdc", "not a rules folder\n");
  await put(root, "node_modules/pkg/AGENTS.md", "dependency\n");
  await put(root, ".venv/lib/AGENTS.md", "dot folder\n");
  await put(root, "docs/README.md", "not guidance\n");
}

describe("listNestedGuidance in a git work tree", () => {
  test.runIf(HAS_GIT)(
    "lists committed and untracked guidance by exact name, dot folders included; ignored folders and node_modules stay out",
    async () => {
      const root = await tempDir();
      await layout(root);
      await put(root, ".gitignore", "build/\n*.local.md\n");
      await put(root, "build/AGENTS.md", "ignored folder\n");
      await gitInit(root);
      await put(root, "pkg/GEMINI.md", "untracked, not ignored\n");
      await put(root, "pkg/sub/AGENTS.md", "untracked\n");
      await put(root, "build/more/CLAUDE.md", "ignored, untracked\n");

      const scan = await listNestedGuidance(root, { git: true });
      expect(scan.via).toBe("git");
      expect(scan.diagnostics).toEqual([]);
      // Not: cwd's own AGENTS.md, build/ (ignored), node_modules, other names and cases, .cursor/other, .claude.
      expect(sorted(scan.paths)).toEqual(
        sorted([
          ".github/workflows/CLAUDE.md",
          ".venv/lib/AGENTS.md",
          "pkg/GEMINI.md",
          "pkg/sub/AGENTS.md",
          "server/AGENTS.md",
          "server/api/CLAUDE.md",
          "web/.cursor/rules/nested/deep.MDC",
          "web/.cursor/rules/tsx.mdc",
        ]),
      );
    },
  );

  test.runIf(HAS_GIT)("a file staged only (added, not committed) is listed", async () => {
    const root = await tempDir();
    await put(root, "a/AGENTS.md", "x\n");
    await gitInit(root, { commit: false });
    await git(root, "add", "a/AGENTS.md");
    expect((await listNestedGuidance(root, { git: true })).paths).toEqual(["a/AGENTS.md"]);
  });

  test.runIf(HAS_GIT)("run from a subfolder, paths are relative to it", async () => {
    const root = await tempDir();
    await put(root, "packages/api/server/AGENTS.md", "x\n");
    await put(root, "packages/web/AGENTS.md", "sibling\n");
    await gitInit(root);
    const scan = await listNestedGuidance(`${root}/packages/api`, { git: true });
    expect(scan.paths).toEqual(["server/AGENTS.md"]);
  });

  test("when git fails, a warning says so and the folders are walked", async () => {
    const root = await tempDir();
    await put(root, ".git", "gitdir: /nonexistent/worktree\n"); // a broken worktree link
    await put(root, "server/AGENTS.md", "x\n");
    const scan = await listNestedGuidance(root, { git: true });
    expect(scan.via).toBe("walk");
    expect(scan.paths).toEqual(["server/AGENTS.md"]);
    expect(scan.diagnostics).toEqual([expect.objectContaining({ code: "GIT_LIST_FAILED", severity: "warning" })]);
  });
});

describe("listNestedGuidance without git", () => {
  test("walks, skipping dot-folders and node_modules but entering .cursor/rules", async () => {
    const root = await tempDir();
    await layout(root);
    const scan = await listNestedGuidance(root, { git: false });
    expect(scan.via).toBe("walk");
    // The reference: the files layout() wrote that are nested guidance by the rules of the walk.
    expect(sorted(scan.paths)).toEqual(
      sorted([
        "server/AGENTS.md",
        "server/api/CLAUDE.md",
        "web/.cursor/rules/tsx.mdc",
        "web/.cursor/rules/nested/deep.MDC",
      ]),
    );
  });

  test("follows a symlinked folder once and survives a symlink loop", async () => {
    const root = await tempDir();
    await put(root, "real/AGENTS.md", "x\n");
    await link(root, "alias", "real");
    await link(root, "real/loop", "..");
    const scan = await listNestedGuidance(root, { git: false });
    expect(scan.paths).toHaveLength(1);
    expect(["real/AGENTS.md", "alias/AGENTS.md"]).toContain(scan.paths[0]);
  });

  test("an aborted signal stops the scan", async () => {
    const root = await tempDir();
    await layout(root);
    await expect(listNestedGuidance(root, { git: false, signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
