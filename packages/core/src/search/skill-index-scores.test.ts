import { describe, expect, it } from "vitest";
import type { Skill } from "../skill.js";
import { DEFAULT_FIELD_WEIGHTS } from "./search-options.js";
import { createSkillIndex } from "./skill-index.js";
import { inlineSkill } from "../testing/inline-skill.js";

// The numbers a search returns, on skills small enough to compute them by hand. Every skill's name and
// description are one word, so BM25's length normalisation is 1 and a term's frequency part is 1: a term one
// skill uses adds its field's weight times its IDF, the score is times the number of matched terms, and it is
// divided by (the request's terms some skill uses) × (the IDF of a term one skill uses). So "alpha" scores the
// name's weight (1.5) at any number of skills, and "alpha zulu" (name and description) 2 × (1.5 + 2) / 2 = 3.5.

const skill = (name: string, description: string | undefined, extra: Partial<Skill> = {}) =>
  inlineSkill(name, description, "", extra);

const NATO = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
const SKILLS = [skill("alpha", "zulu"), skill("bravo", "yankee"), skill("charlie", "xray")];
// Thirty skills: the same scores (the scale follows the IDF of a term one skill uses).
const MANY = [...SKILLS, ...Array.from({ length: 27 }, (_, i) => skill(`${NATO[i % 10]}x${i}`, `w${i}`))];

describe("search scores", () => {
  it("scores a term a skill's name holds by the name's weight, at 3 skills and at 30", async () => {
    expect(DEFAULT_FIELD_WEIGHTS.name).toBe(1.5);
    for (const skills of [SKILLS, MANY])
      expect(await createSkillIndex().search(skills, "alpha")).toEqual([
        {
          name: "alpha",
          description: "zulu",
          score: 1.5,
          confidence: "low",
          matched: [{ term: "alpha", fields: ["name"] }],
        },
      ]);
  });

  it("multiplies by the matched terms and divides by the request's terms some skill uses", async () => {
    for (const skills of [SKILLS, MANY]) {
      const index = createSkillIndex();
      // Terms listed in code-point order whatever the request's order; a word no skill uses changes nothing.
      expect(await index.search(skills, "zulu alpha zeppelin")).toEqual([
        {
          name: "alpha",
          description: "zulu",
          score: 3.5,
          confidence: "high",
          matched: [
            { term: "alpha", fields: ["name"] },
            { term: "zulu", fields: ["description"] },
          ],
        },
      ]);
      const two = await index.search(skills, "alpha bravo");
      expect(two.map((m) => [m.name, m.score])).toEqual([
        ["alpha", 0.75],
        ["bravo", 0.75],
      ]);
    }
  });

  it("rounds scores to three decimals, and lists a term's fields in code-point order", async () => {
    const index = createSkillIndex();
    const skills = [skill("delta", "delta"), skill("alpha", "zulu"), skill("bravo", "yankee")];
    const [delta] = await index.search(skills, "delta alpha bravo");
    // (1.5 + 2) × 1 / 3 = 1.1666…
    expect(delta).toMatchObject({
      name: "delta",
      score: 1.167,
      matched: [{ term: "delta", fields: ["description", "name"] }],
    });
  });

  it("leaves out the description of a skill that has none", async () => {
    const [found] = await createSkillIndex().search([skill("alpha", undefined), ...SKILLS.slice(1)], "alpha");
    expect(found).toEqual({
      name: "alpha",
      score: 1.5,
      confidence: "low",
      matched: [{ term: "alpha", fields: ["name"] }],
    });
    expect(Object.hasOwn(found!, "description")).toBe(false);
  });

  it("weighs fields by the index's weights, and by a search's own over them", async () => {
    const index = createSkillIndex({ weights: { name: 4 } });
    expect((await index.search(SKILLS, "alpha zulu")).map((m) => m.score)).toEqual([6]);
    expect((await index.search(SKILLS, "alpha zulu", { weights: { description: 1 } })).map((m) => m.score)).toEqual([
      5,
    ]);
    expect((await index.search(SKILLS, "alpha")).map((m) => m.score)).toEqual([4]);
  });

  it("keeps a runner-up from a quarter of the cut-off once the best passes it", async () => {
    // alpha: 2 × (1.5 + 2) / 3 = 2.333; bravo: 1.5 / 3 = 0.5.
    const index = createSkillIndex();
    const names = async (minScore: number) =>
      (await index.search(SKILLS, "alpha zulu bravo", { minScore })).map((m) => [m.name, m.score]);
    expect(await names(1.9)).toEqual([
      ["alpha", 2.333],
      ["bravo", 0.5],
    ]);
    expect(await names(2.1)).toEqual([["alpha", 2.333]]);
    expect(await names(2.4)).toEqual([]);
    expect(await createSkillIndex({ minScore: 1 }).search(SKILLS, "alpha")).toHaveLength(1);
  });

  it("returns at most `limit` results, none for a limit of 0 or a request of stop words, without indexing then", async () => {
    const index = createSkillIndex();
    expect(await index.search(SKILLS, "alpha bravo", { limit: 0 })).toEqual([]);
    expect(await index.search(SKILLS, "the and of")).toEqual([]);
    expect(index.stats()).toEqual({ skills: 0, built: 0, pending: 0 });
    expect((await index.search(SKILLS, "alpha bravo", { limit: 1 })).map((m) => m.name)).toEqual(["alpha"]);
    expect((await index.search(SKILLS, "alpha bravo", { limit: 1.9 })).map((m) => m.name)).toEqual(["alpha"]);
  });

  it("indexes the first skill of a name and skips entries that are not skills", async () => {
    const index = createSkillIndex();
    const list = [skill("alpha", "zulu"), null, { description: "nameless" }, skill("alpha", "whiskey"), SKILLS[1]];
    const found = await index.search(list as unknown as Skill[], "alpha zulu whiskey");
    expect(found.map((m) => [m.name, m.description])).toEqual([["alpha", "zulu"]]);
    expect(index.stats().skills).toBe(2);
  });
});
