/**
 * Issue 34, class 2: Cline in full. Rule forms from https://docs.cline.bot/features/cline-rules (a
 * `.clinerules` file or folder, `.cline/rules/`, global rules); conditional rules from cline/cline
 * src/core/context/instructions/user-instructions/rule-conditionals.ts and its test rule-loading.test.ts
 * ("filters rules by evaluationContext.paths"); workflows from
 * https://docs.cline.bot/features/slash-commands/workflows (run as `/name.md`).
 */
import { afterAll, describe, expect, test } from "vitest";
import { loadCommands } from "./load-commands.js";
import { loadGuidance } from "./load-guidance.js";
import { put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

describe("cline-conditional-rules: a rule with paths: is a path rule, its header stripped", () => {
  test(".clinerules/ with a universal, a conditional and a disabled rule", async () => {
    const repo = await tempDir();
    await put(repo, ".clinerules/universal.md", "Always on.\n");
    await put(repo, ".clinerules/scoped.md", '---\npaths:\n  - "src/**"\n---\n\nOnly for src.\n');
    await put(repo, ".clinerules/described.md", "---\ndescription: Style\n---\nTwo spaces.\n");
    await put(repo, ".clinerules/off.md", "---\ndisabled: true\n---\nNever read.\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => [s.name, s.trigger.type])).toEqual([
      ["cline:scoped", "path"],
      ["clinerules", "always"],
    ]);
    const always = skills.find((s) => s.name === "clinerules")!;
    expect(always.content).toContain("Always on.");
    expect(always.content).toContain("Two spaces.");
    expect(always.content).not.toContain("description: Style");
    expect(always.content).not.toContain("Only for src.");
    expect(always.content).not.toContain("Never read.");
    const scoped = skills.find((s) => s.name === "cline:scoped")!;
    expect(scoped.content).toBe("Only for src.\n");
    expect(scoped.trigger).toMatchObject({ type: "path", globs: ["src/**"] });
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([["GUIDANCE_DISABLED", "info"]]);
  });

  test(".cline/rules/ is read beside .clinerules", async () => {
    const repo = await tempDir();
    await put(repo, ".clinerules", "Single-file rules.\n");
    await put(repo, ".cline/rules/api.md", "API rule.\n");
    await put(repo, ".cline/rules/web.md", "---\npaths: apps/web/**\n---\nWeb rule.\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => [s.name, s.trigger.type])).toEqual([
      ["cline-rules", "always"],
      ["cline:web", "path"],
      ["clinerules", "always"],
    ]);
    expect(diagnostics).toEqual([]);
  });

  test("~/.cline/rules with user guidance on; not read without it", async () => {
    const home = await tempDir();
    const repo = await tempDir();
    await put(home, ".cline/rules/mine.md", "My global rule.\n");
    const on = await loadGuidance(repo, { homeDir: home, userGuidance: true });
    expect(on.skills.map((s) => [s.name, s.source.scope])).toEqual([["cline-rules:~", "user"]]);
    expect(on.skills[0]?.content).toContain("My global rule.");
    const off = await loadGuidance(repo, { homeDir: home });
    expect(off.skills).toEqual([]);
  });
});

describe("cline-workflows: .clinerules/workflows/*.md are user commands named /<file>.md", () => {
  test("each workflow is a command, never guidance", async () => {
    const repo = await tempDir();
    await put(repo, ".clinerules/general.md", "Use pnpm.\n");
    await put(repo, ".clinerules/workflows/release.md", "Tag, push, publish.\n");
    const { skills } = await loadCommands(repo);
    expect(skills.map((s) => [s.name, s.trigger])).toEqual([["release.md", { type: "command", prefix: "/" }]]);
    expect(skills[0]?.metadata["kind"]).toBe("cline-workflow");
  });
});
