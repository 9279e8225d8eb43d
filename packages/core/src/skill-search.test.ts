import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import matter from "gray-matter";
import { beforeAll, describe, expect, it } from "vitest";
import { searchSkills } from "./skill-search.js";

const CORPUS = process.env["SKILLCTX_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus/", import.meta.url));
const HAS_CORPUS = existsSync(CORPUS); // absent on a fresh clone: the corpus test is skipped (test/setup/corpus.ts says so)

/** Name and description of the 246 real skills, read from their SKILL.md files. */
let corpus: Array<{ name: string; description?: string }> = [];
beforeAll(async () => {
  if (!HAS_CORPUS) return;
  const found: Array<{ name: string; description?: string }> = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === "SKILL.md") {
        const { data } = matter(await readFile(full, "utf8"));
        found.push({
          name: String(data.name),
          ...(typeof data.description === "string" && { description: data.description }),
        });
      }
    }
  };
  await walk(CORPUS);
  corpus = found;
});

describe("searchSkills", () => {
  const skills = [
    { name: "pdf", description: "Fill, merge and split PDF files." },
    { name: "pdf-forms", description: "Fill in PDF forms." },
    { name: "xlsx", description: "Read and write spreadsheets; also exports to pdf." },
    { name: "deploy-k8s", description: "Roll out services to Kubernetes clusters." },
    { name: "部署助手", description: "帮助部署服务" },
    { name: "no-description" },
  ];

  it("ranks name matches above description matches, and an exact name first", () => {
    const results = searchSkills(skills, "PDF");
    expect(results.map((r) => r.name)).toEqual(["pdf", "pdf-forms", "xlsx"]);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
    expect(results[1]!.score).toBeGreaterThan(results[2]!.score);
    expect(results[0]).toEqual({
      name: "pdf",
      description: "Fill, merge and split PDF files.",
      score: results[0]!.score,
    });
  });

  it("sums over query words and matches word prefixes", () => {
    expect(searchSkills(skills, "pdf forms")[0]!.name).toBe("pdf-forms");
    expect(searchSkills(skills, "kube").map((r) => r.name)).toEqual(["deploy-k8s"]);
    expect(searchSkills(skills, "de")).toEqual([]); // too short to be a prefix
  });

  it("finds words of scripts written without spaces", () => {
    expect(searchSkills(skills, "部署").map((r) => r.name)).toEqual(["部署助手"]);
  });

  it("breaks ties by code-point order of name and honours limit", () => {
    const tied = [
      { name: "b", description: "alpha" },
      { name: "B", description: "alpha" },
      { name: "a", description: "alpha" },
    ];
    expect(searchSkills(tied, "alpha").map((r) => r.name)).toEqual(["B", "a", "b"]);
    expect(searchSkills(tied, "alpha", { limit: 2 }).map((r) => r.name)).toEqual(["B", "a"]);
    expect(searchSkills(tied, "alpha", { limit: 0 })).toEqual([]);
  });

  it("returns nothing for an empty or punctuation-only query", () => {
    expect(searchSkills(skills, "")).toEqual([]);
    expect(searchSkills(skills, " -- ")).toEqual([]);
    expect(searchSkills(skills, undefined as unknown as string)).toEqual([]);
  });

  it.runIf(HAS_CORPUS)("finds real skills in the corpus by name and by what they do", () => {
    expect(corpus.length).toBeGreaterThan(200);
    // Every skill is the first result for its own name written as words.
    const misses = corpus.filter(
      (skill) => searchSkills(corpus, skill.name.replace(/-/g, " "), { limit: 1 })[0]?.name !== skill.name,
    );
    expect(misses.map((skill) => skill.name)).toEqual([]);
    const results = searchSkills(corpus, "fuzzing", { limit: 50 });
    expect(results.length).toBeGreaterThan(3);
    for (const result of results) expect(`${result.name} ${result.description ?? ""}`.toLowerCase()).toMatch(/fuzzing/);
    // Skills with "fuzz" in the name come before those that only mention it.
    const firstDescriptionOnly = results.findIndex((r) => !r.name.includes("fuzz"));
    expect(results.slice(firstDescriptionOnly).every((r) => !r.name.includes("fuzzing"))).toBe(true);
  });

  it("never throws; results are sorted, positive and within the limit", () => {
    const entry = fc.record({
      name: fc.string({ maxLength: 12 }),
      description: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 10 }),
        fc.string({ maxLength: 20 }),
        fc.integer({ min: -2, max: 5 }),
        (list, query, limit) => {
          const results = searchSkills(list, query, { limit });
          expect(results.length).toBeLessThanOrEqual(Math.max(0, limit));
          for (let i = 0; i < results.length; i++) {
            expect(results[i]!.score).toBeGreaterThan(0);
            if (i > 0) expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
