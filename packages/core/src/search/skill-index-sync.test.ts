import { describe, expect, it } from "vitest";
import { createSkillIndex } from "./skill-index.js";
import { inlineSkill } from "../testing/inline-skill.js";

// How the index follows the skill list it is given when the list is large: from 2,000 new skills a search
// indexes their metadata and fills bodies in the background (skill-index.test.ts covers the small lists).

const skill = (name: string, description: string, content: string) => inlineSkill(name, description, content);

const many = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) =>
    skill(`${prefix}-${i}`, `Handles ${prefix} task ${i}.`, `Body ${prefix}${i}.`),
  );

describe("large skill lists", () => {
  it("goes to the background from exactly 2,000 new skills", async () => {
    const at = createSkillIndex();
    await at.search(many(2_000, "bulk"), "handles");
    expect(at.stats().pending).toBe(2_000);
    const below = createSkillIndex();
    await below.search(many(1_999, "bulk"), "handles");
    expect(below.stats()).toEqual({ skills: 1_999, built: 1_999, pending: 0 });
  });

  it("drops the skills a large new list leaves out, and re-indexes nothing for the same skills in a new array", async () => {
    const index = createSkillIndex();
    const first = many(2_000, "old");
    await index.search(first, "handles");
    await index.ready();
    expect(index.stats()).toEqual({ skills: 2_000, built: 4_000, pending: 0 });
    await index.search([...first], "handles");
    expect(index.stats()).toEqual({ skills: 2_000, built: 4_000, pending: 0 });
    const next = many(2_000, "new");
    expect((await index.search(next, "old task 7"))[0]?.name).toMatch(/^new-/);
    expect(index.stats().skills).toBe(2_000);
    await index.ready();
  });

  it("keeps a skill replaced or removed while bodies fill in the background as the later list says", async () => {
    const index = createSkillIndex();
    const list = many(2_100, "fill");
    await index.search(list, "handles");
    const last = list.at(-1)!;
    const replaced = skill(last.name, "Renamed task.", "Body zeppelin.");
    // A short list now: every other skill removed, the last one replaced, before the fill reaches them.
    await index.search([list[0]!, replaced], "handles");
    await index.ready();
    expect(index.stats().skills).toBe(2);
    expect((await index.search([list[0]!, replaced], "zeppelin"))[0]?.name).toBe(last.name);
    expect(await index.search([list[0]!, replaced], `fill${2_099}`)).toEqual([]);
  });
});
