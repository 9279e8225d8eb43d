/**
 * Issue 24: guidance read the way each file's owner reads it. Each test names its rule (a row of
 * docs/conventions.md) and its source.
 */
import { symlink } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadGuidance } from "./load-guidance.js";
import { gitInit, HAS_GIT, put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("owner-exclusions: each owner's excluded folders are part of its rule", () => {
  // Cline leaves .clinerules/workflows, hooks and skills out of its rules (cline/cline
  // apps/vscode/src/core/context/instructions/user-instructions/cline-rules.ts refreshClineRulesToggles).
  test(".clinerules/workflows, hooks and skills are not standing orders; a note names each", async () => {
    const repo = await tempDir();
    await put(repo, ".clinerules/general.md", "Use pnpm.\n");
    await put(repo, ".clinerules/team/style.md", "Two spaces.\n");
    await put(repo, ".clinerules/workflows/release.md", "Release procedure: tag, push, publish.\n");
    await put(repo, ".clinerules/hooks/README.md", "Hooks documentation.\n");
    await put(repo, ".clinerules/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: d\n---\nx\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => s.name)).toEqual(["clinerules"]);
    expect(skills[0]?.content).toContain("Use pnpm.");
    expect(skills[0]?.content).toContain("Two spaces.");
    expect(skills[0]?.content).not.toContain("Release procedure");
    expect(skills[0]?.content).not.toContain("Hooks documentation");
    expect(diagnostics.map((d) => [d.code, d.severity, path.basename(d.path ?? "")])).toEqual([
      ["GUIDANCE_EXCLUDED", "info", "hooks"],
      ["GUIDANCE_EXCLUDED", "info", "skills"],
      ["GUIDANCE_EXCLUDED", "info", "workflows"],
    ]);
  });
});

describe("bridge-once: the same text never twice in system", () => {
  // Claude Code's docs recommend a CLAUDE.md that imports AGENTS.md (https://code.claude.com/docs/en/memory,
  // "AGENTS.md": `@AGENTS.md`); AGENTS.md is already guidance of its own.
  test("CLAUDE.md that says @AGENTS.md keeps the line as text and inlines nothing", async () => {
    const repo = await tempDir();
    await put(repo, "AGENTS.md", "Run the tests with make check.\n");
    await put(repo, "CLAUDE.md", "@AGENTS.md\n\nClaude only: use plan mode.\n");
    await put(repo, "docs/style.md", "Prefer small functions.\n");
    await put(repo, "pkg/AGENTS.md", "Package rule.\n");
    await put(repo, "pkg/CLAUDE.md", "@AGENTS.md\n@../docs/style.md\n");
    const { skills, diagnostics } = await loadGuidance(repo, { model: "claude-sonnet-4-5" });
    const all = skills.map((s) => s.content).join("\n");
    expect(occurrences(all, "Run the tests with make check.")).toBe(1);
    expect(skills.find((s) => s.name === "claude")?.content).toBe("@AGENTS.md\n\nClaude only: use plan mode.\n");
    // A nested CLAUDE.md's bridge to its folder's AGENTS.md: also once; other imports still inlined.
    expect(occurrences(all, "Package rule.")).toBe(1);
    expect(skills.find((s) => s.name === "claude:pkg")?.content).toContain("Prefer small functions.");
    expect(diagnostics.filter((d) => d.code === "IMPORT_ALREADY_LOADED")).toHaveLength(2);
  });

  test.runIf(HAS_GIT)("a CLAUDE.md symlinked to AGENTS.md (or the other way) is one skill with an alias", async () => {
    const repo = await tempDir();
    await gitInit(repo);
    await put(repo, "AGENTS.md", "Shared guidance.\n");
    await symlink("AGENTS.md", path.join(repo, "CLAUDE.md"));
    await put(repo, "pkg/CLAUDE.md", "Package guidance.\n");
    await symlink("CLAUDE.md", path.join(repo, "pkg/AGENTS.md"));
    const { skills } = await loadGuidance(path.join(repo, "pkg"), { model: "claude-opus-4" });
    const all = skills.map((s) => s.content).join("\n");
    expect(occurrences(all, "Shared guidance.")).toBe(1);
    expect(occurrences(all, "Package guidance.")).toBe(1);
    expect(skills.map((s) => [s.name, s.metadata["aliases"]])).toEqual([
      ["agents", "CLAUDE.md"],
      ["agents:pkg", "pkg/CLAUDE.md"],
    ]);
  });
});

describe("imports-no-url: a URL is never an import", () => {
  // Gemini CLI: validateImportPath rejects /^(file|https?):\/\// (google-gemini/gemini-cli
  // packages/core/src/utils/memoryImportProcessor.ts, and its test "should reject URLs").
  test("@https://, @http:// and @file:/// stay text even when such a relative path exists", async () => {
    const repo = await tempDir();
    await put(repo, "https:/example.com/x.md", "fetched?\n");
    await put(repo, "http:/example.com/x.md", "fetched?\n");
    await put(repo, "file:/etc/x.md", "fetched?\n");
    const text = "See @https://example.com/x.md and @http://example.com/x.md\n@file:///etc/x.md\n";
    await put(repo, "GEMINI.md", text);
    const { skills, diagnostics } = await loadGuidance(repo, { model: "gemini-2.5-pro" });
    expect(skills.map((s) => [s.name, s.content])).toEqual([["gemini", text]]);
    expect(diagnostics).toEqual([]);
  });
});

describe.runIf(HAS_GIT)("cwd-file and root-markers (Codex)", () => {
  test("a cwd that is a file reads as its folder, without READ_FAILED", async () => {
    // openai/codex codex-rs/core/src/skills/loader.rs: `if cwd.is_dir() { cwd } else { cwd.parent() }`.
    const repo = await tempDir();
    await gitInit(repo);
    await put(repo, "AGENTS.md", "root\n");
    await put(repo, "pkg/AGENTS.md", "pkg\n");
    const file = await put(repo, "pkg/main.ts", "export {};\n");
    const { skills, diagnostics } = await loadGuidance(file);
    expect(skills.map((s) => s.name)).toEqual(["agents", "agents:pkg"]);
    expect(diagnostics).toEqual([]);
  });

  test("project root markers: the nearest folder with one is the root; the default is .git", async () => {
    // https://developers.openai.com/codex/config-reference project_root_markers.
    const repo = await tempDir();
    await gitInit(repo);
    await put(repo, "AGENTS.md", "git root\n");
    await put(repo, "mono/package.json", "{}\n");
    await put(repo, "mono/AGENTS.md", "mono root\n");
    await put(repo, "mono/app/AGENTS.md", "app\n");
    const cwd = path.join(repo, "mono/app");
    const byDefault = await loadGuidance(cwd);
    expect(byDefault.skills.map((s) => s.content)).toEqual(["git root\n", "mono root\n", "app\n"]);
    const marked = await loadGuidance(cwd, { rootMarkers: ["package.json"] });
    expect(marked.skills.map((s) => [s.name, s.content])).toEqual([
      ["agents", "mono root\n"],
      ["agents:app", "app\n"],
    ]);
    const none = await loadGuidance(cwd, { rootMarkers: [] });
    expect(none.skills.map((s) => s.content)).toEqual(["app\n"]);
  });
});
