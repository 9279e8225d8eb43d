import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIDENT_SCORE, DEFAULT_MIN_SEARCH_SCORE } from "./search-options.js";
import { createSkillIndex } from "./skill-index.js";
import { inlineSkill } from "../testing/inline-skill.js";

const skill = inlineSkill;

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
    const index = createSkillIndex();
    expect((await index.search(SKILLS, "fill out this pdf form"))[0]?.name).toBe("pdf-forms");
    expect((await index.search(SKILLS, "draft the changelog"))[0]?.name).toBe("release-notes");
    // Only the body says it.
    expect((await index.search(SKILLS, "the container was OOMKilled"))[0]?.name).toBe("k8s-debug");
    expect((await index.search(SKILLS, "check the digital signatures on this document"))[0]?.name).toBe("pdf-forms");
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

  it("finds nothing for a request whose words no skill uses, or one made of stop words", async () => {
    const index = createSkillIndex();
    expect(await index.search(SKILLS, "book a zeppelin ride to lisbon")).toEqual([]);
    expect(await index.search(SKILLS, "could you please help me with this")).toEqual([]);
    expect(await index.search(SKILLS, "")).toEqual([]);
    expect(await index.search(SKILLS, 42 as unknown as string)).toEqual([]);
  });

  it("ranks always and marks a weak match low confidence instead of dropping it (issue 33: a cut-off swallowed answers)", async () => {
    const index = createSkillIndex();
    const strong = await index.search(SKILLS, "fill in the pdf form fields and flatten them");
    expect(strong[0]).toMatchObject({ name: "pdf-forms", confidence: "high" });
    // One generic word shared with a body: still returned, marked low.
    const weak = await index.search(SKILLS, "order the sandwiches");
    expect(weak.map((m) => [m.name, m.confidence])).toEqual([["docker-images", "low"]]);
    // The mark follows the index's confidentScore, and a word met only in the body stays weak at any score.
    const trusting = createSkillIndex({ confidentScore: 0 });
    expect((await trusting.search(SKILLS, "order the sandwiches"))[0]?.confidence).toBe("low");
    expect((await trusting.search(SKILLS, "fill in the pdf form"))[0]).toMatchObject({
      name: "pdf-forms",
      confidence: "high",
    });
    expect(DEFAULT_CONFIDENT_SCORE).toBeGreaterThan(0);
  });

  it("a host's cut-off (minScore) still drops everything when the best is below it", async () => {
    const index = createSkillIndex();
    const all = await index.search(SKILLS, "review the notes");
    expect(all.map((m) => m.name).sort()).toEqual(["release-notes", "sql-review"]);
    expect(await index.search(SKILLS, "fill out this pdf form", { minScore: 1e9 })).toEqual([]);
    const strict = createSkillIndex({ minScore: 1e9 });
    expect(await strict.search(SKILLS, "fill out this pdf form")).toEqual([]);
    expect(DEFAULT_MIN_SEARCH_SCORE).toBe(0);
  });

  it("scores an identifier matched whole above a skill that has only its parts (issue 33: OrderRepo, ESLint)", async () => {
    const skills = [
      skill("github-repos", "Manage GitHub repos: create, archive and order repositories by stars."),
      skill("persistence", "Data access layer conventions.", "The OrderRepo class wraps the orders table."),
      skill("es-modules", "Convert a package to ES modules.", "Lint the imports."),
      skill("linting", "Lint setup for TypeScript projects.", "ESLint flat config and its rules."),
    ];
    const index = createSkillIndex();
    expect((await index.search(skills, "add a method to OrderRepo"))[0]?.name).toBe("persistence");
    expect((await index.search(skills, "orderrepo is slow"))[0]?.name).toBe("persistence");
    expect((await index.search(skills, "fix the eslint errors"))[0]?.name).toBe("linting");
    expect((await index.search(skills, "ESLint complains"))[0]?.name).toBe("linting");
  });

  it("keeps content words a stemmer or stop list merged or dropped (issue 33: set/settings, test/testers, go)", async () => {
    const skills = [
      skill("claude-settings-audit", "Audit the settings files of a repository."),
      skill("game-server", "Run a dedicated game server at home.", "Set up the machine."),
      skill("beta-testers", "Invite testers to a beta through TestFlight."),
      skill("unit-test", "Write a unit test."),
      skill("go-modules", "Manage Go modules and go.mod files."),
    ];
    const index = createSkillIndex();
    expect((await index.search(skills, "set up a game server on my old laptop"))[0]?.name).toBe("game-server");
    expect((await index.search(skills, "add more testers"))[0]?.name).toBe("beta-testers");
    expect((await index.search(skills, "go"))[0]?.name).toBe("go-modules");
  });

  it("indexes a large skill set's metadata first and fills bodies in the background (issue 33: first search at scale)", async () => {
    const many = Array.from({ length: 2_100 }, (_, i) =>
      skill(
        `skill-${i}`,
        `Handles workflow number ${i} for the team.`,
        `Body of ${i}: ${i === 1207 ? "zeppelin" : "routine"} notes.`,
      ),
    );
    const index = createSkillIndex();
    // The first search answers from the metadata: the body-only word is not there yet.
    expect((await index.search(many, "workflow number 1207"))[0]?.name).toBe("skill-1207");
    expect(index.stats().pending).toBeGreaterThan(0);
    await index.ready();
    expect(index.stats()).toMatchObject({ skills: 2_100, pending: 0 });
    expect((await index.search(many, "zeppelin"))[0]?.name).toBe("skill-1207");
  });

  it("prepare starts the index without a search, and the first search finds it ready", async () => {
    const index = createSkillIndex();
    index.prepare(SKILLS);
    await index.ready();
    expect(index.stats()).toMatchObject({ skills: 5, built: 5, pending: 0 });
    await index.search(SKILLS, "docker");
    expect(index.stats().built).toBe(5);
  });

  it("follows the skill list: adds, replaces changed skills, drops removed ones, and reuses unchanged ones", async () => {
    const index = createSkillIndex();
    await index.search(SKILLS, "pdf");
    expect(index.stats()).toEqual({ skills: 5, built: 5, pending: 0 });
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
    expect(index.stats()).toEqual({ skills: 5, built: 7, pending: 0 });
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
