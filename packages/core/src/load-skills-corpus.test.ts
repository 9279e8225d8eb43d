import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readCodexSkillMetadataSync, withCodexMetadata } from "./codex-skill-metadata.js";
import { loadSkills } from "./load-skills.js";
import { parseSkill } from "./parse-skill.js";
import { createSkillCache } from "./skill-cache.js";
import { compareCodePoints } from "./code-point-order.js";

const CORPUS = process.env["SKILLCTX_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url));
const HAS_CORPUS = existsSync(CORPUS); // absent on a fresh clone: these tests are skipped (test/setup/corpus.ts says so)
const COLLECTIONS = (HAS_CORPUS ? readdirSync(CORPUS, { withFileTypes: true }) : [])
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort(compareCodePoints);

// Counted without the code under test: every SKILL.md file in the corpus.
function skillFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((p) => path.basename(p) === "SKILL.md")
    .map((p) => path.join(dir, p));
}

describe.runIf(HAS_CORPUS)("loadSkills on the real-world corpus", () => {
  it("loads all 246 skills, one collection at a time, none dropped", async () => {
    const cache = createSkillCache();
    let total = 0;
    for (const collection of COLLECTIONS) {
      const dir = path.join(CORPUS, collection);
      const { skills, diagnostics } = await loadSkills([dir], { cache });
      const expected = skillFiles(dir).sort(compareCodePoints);
      const fromSkillMd = skills.filter((s) => s.source.format === "skill-md");
      expect(fromSkillMd.map((s) => s.source.path).sort((a, b) => compareCodePoints(String(a), String(b)))).toEqual(
        expected,
      );
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      // The only other .md files outside skill folders are the collections' own readmes.
      const legacy = skills.filter((s) => s.source.format === "legacy").map((s) => s.name);
      expect(legacy).toEqual(["anthropics-skills", "openai-skills"].includes(collection) ? ["REPO-README"] : []);
      total += fromSkillMd.length;
    }
    expect(total).toBe(246);
  });

  it("reads from each head exactly what parsing the whole file gives, and the body on demand", async () => {
    const { skills } = await loadSkills(
      COLLECTIONS.map((c) => path.join(CORPUS, c)),
      { cache: createSkillCache() },
    );
    const fromSkillMd = skills.filter((s) => s.source.format === "skill-md");
    expect(fromSkillMd.length).toBeGreaterThan(200);
    for (const skill of fromSkillMd) {
      const file = skill.source.path!;
      const parsed = parseSkill(await readFile(file, "utf8"), {
        path: file,
        format: "skill-md",
        scope: "project",
        dir: path.dirname(file),
      });
      // A Codex agents/openai.yaml beside the SKILL.md adds its metadata (75 of the corpus skills have one).
      const codex = readCodexSkillMetadataSync(path.dirname(file)).metadata;
      const whole = codex === undefined ? parsed : withCodexMetadata(parsed, codex);
      expect({ ...skill }).toEqual(whole);
    }
  });

  it("loads the corpus as one parent folder: the one name shared by two collections clashes, with a warning", async () => {
    const { skills, diagnostics } = await loadSkills([CORPUS], { cache: createSkillCache() });
    const clashes = diagnostics.filter((d) => d.code === "NAME_CLASH");
    expect(clashes).toHaveLength(1);
    expect(clashes[0]!.path).toBe(path.join(CORPUS, "openai-skills/skill-creator/SKILL.md"));
    expect(clashes[0]!.message).toContain(path.join(CORPUS, "anthropics-skills/skill-creator/SKILL.md"));
    expect(skills.filter((s) => s.source.format === "skill-md")).toHaveLength(245);
    expect(skills.filter((s) => s.source.format === "legacy").map((s) => s.name)).toEqual([
      "anthropics-skills/REPO-README",
      "openai-skills/REPO-README",
    ]);
  });
});
