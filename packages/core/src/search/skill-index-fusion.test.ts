import { describe, expect, it } from "vitest";
import type { EmbedTexts } from "./fusion.js";
import { createSkillIndex } from "./skill-index.js";
import { inlineSkill } from "../testing/inline-skill.js";

// A search with the host's embedding function: the lexical and the vector rankings fused by rank, each result
// keeping its lexical score and matched terms (fusion.test.ts tests the fusion and the cosine ranking alone).

const skill = (name: string, description: string) => inlineSkill(name, description);

// Sixty skills whose vectors all point the request's way; only "alpha" shares a word with it.
const SKILLS = [skill("alpha", "zulu"), ...Array.from({ length: 59 }, (_, i) => skill(`s${i}`, `w${i}`))];
const sameWay: EmbedTexts = async (texts) => texts.map(() => [1, 0]);

describe("search with embeddings", () => {
  it("keeps each result's lexical score and matches, ranks vector-only results at score 0, and fuses the top 50 of each ranking", async () => {
    const found = await createSkillIndex({ embed: sameWay }).search(SKILLS, "alpha", { limit: 100 });
    expect(found[0]).toEqual({
      name: "alpha",
      description: "zulu",
      score: 1.5,
      confidence: "low",
      matched: [{ term: "alpha", fields: ["name"] }],
    });
    expect(found).toHaveLength(50);
    expect(found[1]).toEqual({ name: "s0", description: "w0", score: 0, confidence: "low", matched: [] });
  });

  it("keeps vector-only results below the runner-up share of the cut-off (the vectors vouch for them)", async () => {
    const found = await createSkillIndex({ embed: sameWay, minScore: 1 }).search(SKILLS.slice(0, 3), "alpha");
    expect(found.map((m) => [m.name, m.score])).toEqual([
      ["alpha", 1.5],
      ["s0", 0],
      ["s1", 0],
    ]);
  });

  it("passes the caller's signal to the embedding function", async () => {
    const controller = new AbortController();
    const signals: unknown[] = [];
    const embed: EmbedTexts = async (texts, options) => {
      signals.push(options.signal);
      return texts.map(() => [1, 0]);
    };
    await createSkillIndex({ embed }).search(SKILLS.slice(0, 2), "alpha", { signal: controller.signal });
    expect(signals).toEqual([controller.signal]);
  });

  it("falls back to the lexical ranking without a request vector, and embeds again the skills that got none", async () => {
    const texts: number[] = [];
    const none: EmbedTexts = async (batch) => {
      texts.push(batch.length);
      return [];
    };
    const index = createSkillIndex({ embed: none });
    const found = await index.search(SKILLS.slice(0, 3), "alpha");
    expect(found.map((m) => [m.name, m.score])).toEqual([["alpha", 1.5]]);
    await index.search(SKILLS.slice(0, 3), "alpha");
    expect(texts).toEqual([4, 4]);
  });
});
