/**
 * The labelled selection sets of eval/selection/sets (issue 33): every request line parses and is
 * consistent (ids unique, kinds agree with `expect`, `answer_in` given for answerable requests), every
 * label names a folder with a SKILL.md in its set, each set has the counts the evaluation relies on, and
 * each set's skills carry their licence. The `corpus` set labels the shared corpus, which is not copied:
 * its label check runs only where the corpus is (test/setup/corpus.ts prints one line when it is absent).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseJson } from "../packages/core/src/json/parse-json.js";
import { loadSkills } from "../packages/core/src/load-skills.js";
import { CORPUS, HAS_CORPUS } from "./setup/corpus.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SETS_DIR = path.join(ROOT, "eval/selection/sets");
const SETS = readdirSync(SETS_DIR).filter((name) => statSync(path.join(SETS_DIR, name)).isDirectory());
const KINDS = new Set(["answerable", "none"]);
const ANSWER_IN = new Set(["description", "body", "reference"]);
// Referenced files are kept text-only and small (the brief of issue 33); a SKILL.md is kept whole as published.
const MAX_REFERENCED_FILE_BYTES = 64 * 1024;
const LICENCE = /\b(MIT|Apache-2\.0|BSD(-[23]-Clause)?|CC[- ]BY(-SA)?[- ]4\.0)\b/;

interface Request {
  id: string;
  request: string;
  expect: string[];
  kind: string;
  answer_in?: string;
}

const requestsOf = (set: string): Request[] =>
  readFileSync(path.join(SETS_DIR, set, "requests.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => parseJson(line) as Request);
const skillsRoot = (set: string) => (set === "corpus" ? CORPUS : path.join(SETS_DIR, set, "skills"));
const skillFiles = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => path.basename(file) === "SKILL.md")
    .map((file) => path.join(dir, file));

describe("the labelled selection sets", () => {
  it("has three sets from different sources, the corpus one of them", () => {
    expect(SETS).toContain("corpus");
    expect(SETS.length).toBeGreaterThanOrEqual(3);
  });

  it("never reuses a request of the old set, which its tuner wrote", () => {
    const old = new Set(
      readFileSync(path.join(ROOT, "eval/selection/queries.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => (parseJson(line) as { query: string }).query.trim().toLowerCase()),
    );
    for (const set of SETS) {
      for (const r of requestsOf(set)) expect(old.has(r.request.trim().toLowerCase()), r.id).toBe(false);
    }
  });

  describe.each(SETS)("set %s", (set) => {
    const requests = requestsOf(set);

    it("has well-formed lines: unique ids prefixed with the set, kinds that agree with expect", () => {
      const ids = new Set<string>();
      const texts = new Set<string>();
      for (const r of requests) {
        expect(r.id.startsWith(`${set}-`), r.id).toBe(true);
        expect(ids.has(r.id), r.id).toBe(false);
        ids.add(r.id);
        expect(r.request.trim().length, r.id).toBeGreaterThan(5);
        expect(texts.has(r.request), `${r.id} repeats a request`).toBe(false);
        texts.add(r.request);
        expect(KINDS.has(r.kind), r.id).toBe(true);
        expect(new Set(r.expect).size, r.id).toBe(r.expect.length);
        if (r.kind === "none") {
          expect(r.expect, r.id).toEqual([]);
          expect(r.answer_in, r.id).toBeUndefined();
        } else {
          expect(r.expect.length, r.id).toBeGreaterThan(0);
          expect(ANSWER_IN.has(r.answer_in ?? ""), r.id).toBe(true);
        }
      }
    });

    it("has at least 120 answerable requests, a third of them answered only in a body or a referenced file, and 40 with no skill", () => {
      const answerable = requests.filter((r) => r.kind === "answerable");
      const hidden = answerable.filter((r) => r.answer_in === "body" || r.answer_in === "reference");
      expect(answerable.length).toBeGreaterThanOrEqual(120);
      expect(hidden.length * 3).toBeGreaterThanOrEqual(answerable.length);
      expect(requests.filter((r) => r.kind === "none").length).toBeGreaterThanOrEqual(40);
    });

    it("names its sources and their licences in SOURCE.md", () => {
      const source = readFileSync(path.join(SETS_DIR, set, "SOURCE.md"), "utf8");
      expect(source).toMatch(LICENCE);
      expect(source).toMatch(/\b[0-9a-f]{40}\b/); // a pinned commit
    });

    it.runIf(set === "corpus" ? HAS_CORPUS : true)("labels only folders that hold a SKILL.md in the set", () => {
      for (const r of requests) {
        for (const folder of r.expect) {
          expect(path.isAbsolute(folder) || folder.split("/").includes(".."), folder).toBe(false);
          expect(existsSync(path.join(skillsRoot(set), folder, "SKILL.md")), `${r.id}: ${folder}`).toBe(true);
        }
      }
    });
  });

  describe.each(SETS.filter((set) => set !== "corpus"))("copied set %s", (set) => {
    it("keeps a LICENSE beside each collection and referenced files text-only, under 64 KiB", () => {
      const root = skillsRoot(set);
      for (const collection of readdirSync(root)) {
        expect(existsSync(path.join(root, collection, "LICENSE")), collection).toBe(true);
      }
      for (const file of readdirSync(root, { recursive: true }) as string[]) {
        const full = path.join(root, file);
        if (!statSync(full).isFile()) continue;
        const bytes = readFileSync(full);
        expect(bytes.includes(0), `${file} is not text`).toBe(false);
        if (path.basename(file) !== "SKILL.md" && path.basename(file) !== "LICENSE") {
          expect(bytes.length, file).toBeLessThanOrEqual(MAX_REFERENCED_FILE_BYTES);
        }
      }
    });

    it("loads one skill per SKILL.md when each skills folder is a source", async () => {
      // Published paths go deeper than discovery's MAX_SKILL_DIR_DEPTH below skills/, so a harness passes
      // the folder that holds the skill folders, as a user configures a plugin's skills folder.
      const files = skillFiles(skillsRoot(set));
      const parents = [...new Set(files.map((file) => path.dirname(path.dirname(file))))];
      const loaded = await loadSkills(parents);
      const paths = loaded.skills.filter((s) => s.source.format === "skill-md").map((s) => s.source.path);
      expect(new Set(paths)).toEqual(new Set(files));
    });
  });
});
