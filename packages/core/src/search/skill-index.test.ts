import { describe, expect, it } from "vitest";
import type { Skill } from "../skill.js";
import { createSkillIndex, DEFAULT_MIN_SEARCH_SCORE } from "./skill-index.js";

function skill(name: string, description: string, content = "", extra: Partial<Skill> = {}): Skill {
  return {
    name,
    description,
    content,
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "on-demand" },
    metadata: {},
    ...extra,
  };
}

const SKILLS = [
  skill(
    "pdf-forms",
    "Fill in and flatten PDF forms and read their fields.",
    "# PDF\n\n## Signatures\nCheck digital signatures.",
  ),
  skill(
    "release-notes",
    "Write release notes and a changelog from merged pull requests.",
    "## Semantic versioning\nMajor or minor bump.",
  ),
  skill(
    "docker-images",
    "Build small Docker images for Node and Python services.",
    "## Layer caching\nOrder the Dockerfile.",
  ),
  skill("sql-review", "Review SQL queries and migrations for performance.", "## Indexes\nRead the EXPLAIN plan."),
  skill(
    "k8s-debug",
    "Debug Kubernetes pods that crash or never become ready.",
    "## OOMKilled\nRaise the memory limit.",
  ),
];

describe("createSkillIndex", () => {
  it("ranks by what a skill says: name, description, and the body's headings and text", async () => {
    // No cut-off: the default is calibrated on real skills, whose texts are far longer than these.
    const index = createSkillIndex({ minScore: 0 });
    expect((await index.search(SKILLS, "fill out this pdf form"))[0]?.name).toBe("pdf-forms");
    expect((await index.search(SKILLS, "draft the changelog"))[0]?.name).toBe("release-notes");
    // Only the body says it.
    expect((await index.search(SKILLS, "the container was OOMKilled"))[0]?.name).toBe("k8s-debug");
    expect((await index.search(SKILLS, "is this document digitally signed"))[0]?.name).toBe("pdf-forms");
  });

  it("says which request words matched, in which fields", async () => {
    const [top] = await createSkillIndex().search(SKILLS, "explain plan for slow sql");
    expect(top?.name).toBe("sql-review");
    expect(top?.matched).toEqual(
      expect.arrayContaining([
        { term: "sql", fields: expect.arrayContaining(["description", "name"]) },
        { term: "explain", fields: ["body"] },
      ]),
    );
  });

  it("finds nothing for a request no skill serves, or one made of stop words", async () => {
    const index = createSkillIndex();
    expect(await index.search(SKILLS, "book a table for two at an italian restaurant")).toEqual([]);
    expect(await index.search(SKILLS, "could you please help me with this")).toEqual([]);
    expect(await index.search(SKILLS, "")).toEqual([]);
    expect(await index.search(SKILLS, 42 as unknown as string)).toEqual([]);
  });

  it("finds a skill by its own word, alone or beside generic words, under the default cut-off only", async () => {
    // Skills alike but for one word each: a word in one description scores its field weights, under the cut-off.
    const alike = ["apple", "birch", "cedar", "delta", "ember", "fjord"].map((word, i) =>
      skill(`skill-${i}`, `Handles the ${word}7 workflow for the team. Use it for ${word}7 reports and exports.`),
    );
    const index = createSkillIndex();
    expect((await index.search(alike, "ember7 report")).map((m) => m.name)).toEqual(["skill-4"]);
    expect((await index.search(alike, "ember7")).map((m) => m.name)).toEqual(["skill-4"]);
    expect((await index.search(alike, "delta7 workflow for the team")).map((m) => m.name)).toEqual(["skill-3"]);
    // A generic word alone finds nothing; a word only a body uses is no skill's own word.
    expect(await index.search(alike, "report")).toEqual([]);
    const withBody = [...alike, skill("notes", "Keeps meeting notes tidy.", "Mentions the zeppelin once.")];
    expect(await index.search(withBody, "zeppelin report")).toEqual([]);
    // A stricter cut-off (a suggestion's) is a score only.
    expect(await index.search(alike, "ember7 report", { minScore: DEFAULT_MIN_SEARCH_SCORE + 0.1 })).toEqual([]);
  });

  it("the cut-off can be lowered (minScore 0 ranks every match) and raised", async () => {
    const index = createSkillIndex();
    const all = await index.search(SKILLS, "review the notes", { minScore: 0 });
    expect(all.map((m) => m.name).sort()).toEqual(["release-notes", "sql-review"]);
    expect(await index.search(SKILLS, "fill out this pdf form", { minScore: 1e9 })).toEqual([]);
    const strict = createSkillIndex({ minScore: 1e9 });
    expect(await strict.search(SKILLS, "fill out this pdf form")).toEqual([]);
    expect(DEFAULT_MIN_SEARCH_SCORE).toBeGreaterThan(0);
  });

  it("follows the skill list: adds, replaces changed skills, drops removed ones, and reuses unchanged ones", async () => {
    const index = createSkillIndex();
    await index.search(SKILLS, "pdf");
    expect(index.stats()).toEqual({ skills: 5, built: 5 });
    // The same array again: nothing to do.
    await index.search(SKILLS, "docker");
    expect(index.stats().built).toBe(5);
    // New objects with the same text (a reload that changed nothing): not indexed again.
    const copies = SKILLS.map((s) => ({ ...s }));
    await index.search(copies, "docker");
    expect(index.stats().built).toBe(5);
    // One skill changed, one removed, one added.
    const changed = [
      skill("pdf-forms", "Merge and split PDF files."),
      ...copies.slice(1, 4),
      skill("regex-helper", "Write and explain regular expressions."),
    ];
    expect((await index.search(changed, "explain this regular expression"))[0]?.name).toBe("regex-helper");
    expect(index.stats()).toEqual({ skills: 5, built: 7 });
    expect(await index.search(changed, "crashing kubernetes pod")).toEqual([]);
    expect((await index.search(changed, "merge pdf files"))[0]?.name).toBe("pdf-forms");
    expect(await index.search(changed, "flatten the fields")).toEqual([]);
  });

  it("reads a scanned skill's body only when it first searches, and a body that cannot be read leaves metadata", async () => {
    let reads = 0;
    const lazy = skill("lazy", "Convert office documents to markdown.");
    Object.defineProperty(lazy, "content", {
      get() {
        reads++;
        throw new Error("gone");
      },
    });
    const index = createSkillIndex();
    expect(reads).toBe(0);
    expect((await index.search([lazy, ...SKILLS], "convert documents to markdown"))[0]?.name).toBe("lazy");
    expect(reads).toBe(1);
  });

  it("indexes when_to_use, trigger keywords, metadata keywords and declared resource names", async () => {
    const skills = [
      ...SKILLS,
      skill("a1", "Helps.", "", { whenToUse: "when the user mentions terraform plans" }),
      skill("a2", "Helps.", "", { trigger: { type: "keyword", keywords: ["grafana"] } }),
      skill("a3", "Helps.", "", { metadata: { keywords: "flamegraph profiler" } }),
      skill("a4", "Helps.", "", { resources: ["references/openapi-spec.md"] }),
    ];
    const index = createSkillIndex({ minScore: 0 });
    expect((await index.search(skills, "terraform"))[0]?.name).toBe("a1");
    expect((await index.search(skills, "grafana dashboard"))[0]?.name).toBe("a2");
    expect((await index.search(skills, "make a flamegraph"))[0]?.name).toBe("a3");
    expect((await index.search(skills, "validate the openapi spec"))[0]?.name).toBe("a4");
  });

  it("fuses a host embedding function by rank, caching skill vectors by digest", async () => {
    let embedded = 0;
    // Deterministic: a skill about "translation" and a request about "localize" share a dimension.
    const vector = (text: string) => [/translat|locali[sz]/i.test(text) ? 1 : 0, /pdf/i.test(text) ? 1 : 0, 0.01];
    const embed = async (texts: string[]) => {
      embedded += texts.length;
      return texts.map(vector);
    };
    const skills = [...SKILLS, skill("glossary", "Keep product translations consistent across languages.")];
    const index = createSkillIndex({ embed, minScore: 0 });
    const first = await index.search(skills, "localize the app");
    expect(first[0]?.name).toBe("glossary");
    expect(embedded).toBe(1 + skills.length);
    await index.search(skills, "pdf forms");
    // Only the request is embedded again: skill vectors are kept by digest.
    expect(embedded).toBe(2 + skills.length);
  });

  it("rejects only when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createSkillIndex().search(SKILLS, "pdf", { signal: controller.signal })).rejects.toThrow();
  });
});
