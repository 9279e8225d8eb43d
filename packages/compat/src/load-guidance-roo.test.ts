/**
 * Issue 34, class 6: Roo Code's rules (https://docs.roocode.com/features/custom-instructions; RooCodeInc/
 * Roo-Code src/core/prompts/sections/custom-instructions.ts loadRuleFiles): `.roo/rules/` read
 * recursively in order, `.roorules` only when that folder holds none; mode rules left out with a note.
 */
import * as path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadGuidance } from "./load-guidance.js";
import { put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

describe("roo-rules", () => {
  test(".roo/rules/ is one always-on skill; .roorules beside it is not read; mode rules are noted", async () => {
    const repo = await tempDir();
    await put(repo, ".roo/rules/01-general.md", "General Roo rule.\n");
    await put(repo, ".roo/rules/team/02-style.md", "Style Roo rule.\n");
    await put(repo, ".roo/rules-architect/plan.md", "Architect only.\n");
    await put(repo, ".roorules", "Fallback file.\n");
    await put(repo, ".roorules-code", "Code mode only.\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => [s.name, s.trigger.type])).toEqual([["roo-rules", "always"]]);
    const text = skills[0]!.content;
    expect(text.indexOf("General Roo rule.")).toBeLessThan(text.indexOf("Style Roo rule."));
    for (const absent of ["Fallback file.", "Architect only.", "Code mode only."]) expect(text).not.toContain(absent);
    expect(diagnostics.map((d) => [d.code, d.severity, path.basename(d.path ?? "")])).toEqual([
      ["GUIDANCE_EXCLUDED", "info", ".roorules-code"],
      ["GUIDANCE_EXCLUDED", "info", "rules-architect"],
    ]);
  });

  test(".roorules stands in when .roo/rules/ is missing", async () => {
    const repo = await tempDir();
    await put(repo, ".roorules", "Fallback file.\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => [s.name, s.content])).toEqual([["roorules", "Fallback file.\n"]]);
    expect(diagnostics).toEqual([]);
  });

  test("non-.md files in .roo/rules (which Roo Code reads) get one note; Roo's own cache files do not", async () => {
    const repo = await tempDir();
    await put(repo, ".roo/rules/01-general.md", "General Roo rule.\n");
    await put(repo, ".roo/rules/02-extra.txt", "Text rule.\n");
    await put(repo, ".roo/rules/team/03-style.yaml", "style: tabs\n");
    await put(repo, ".roo/rules/notes.log", "a log\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => s.name)).toEqual(["roo-rules"]);
    expect(skills[0]!.content).not.toContain("Text rule.");
    expect(diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      [
        "GUIDANCE_EXCLUDED",
        "info",
        "2 files in .roo/rules not read (02-extra.txt, team/03-style.yaml): skillctx reads Roo Code's .md rules only, Roo Code reads every text file there",
      ],
    ]);
  });
});
