/**
 * The labelled sets of eval/selection: `eval/selection/sets/<set>/{SOURCE.md,requests.jsonl,skills/}` (the set
 * `corpus` takes its skills from `SKILLCTX_CORPUS`, else ../shared/corpus). A request line:
 * `{"id","request","expect":["<collection>/<skill-folder>",...],"kind":"answerable"|"none","answer_in":...}`,
 * `expect` relative to the set's skills root. With fewer than two such sets (a fresh clone), the older labelled
 * requests stand in: eval/selection/queries.jsonl over the corpus and the fixture set.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseJson } from "../../packages/core/src/json/parse-json.js";
import { loadSkills } from "../../packages/core/src/load-skills.js";
import type { Skill } from "../../packages/core/src/skill.js";

/** One labelled request, its expected skills by name. */
export interface Labelled {
  id: string;
  request: string;
  /** Names of the skills that serve it (any of them right); empty when no skill does. */
  expect: string[];
  /** Where the evidence is: "description" (metadata), "body", "reference" (a file beside SKILL.md), or "none". */
  answerIn: "description" | "body" | "reference" | "none";
}

export interface EvalSet {
  name: string;
  root: string;
  skills: Skill[];
  requests: Labelled[];
  /** Requests left out because a label names a folder with no loaded skill. */
  unlabelled: string[];
  /** SKILL.md folders not loaded because another skill of the set has their name (NAME_CLASH: the first wins). */
  shadowed: string[];
}

export async function loadSets(root: string, corpus: string): Promise<EvalSet[]> {
  const setsDir = path.join(root, "eval/selection/sets");
  const names = existsSync(setsDir)
    ? readdirSync(setsDir).filter((n) => existsSync(path.join(setsDir, n, "requests.jsonl")))
    : [];
  const sets: EvalSet[] = [];
  for (const name of names.sort()) {
    const own = path.join(setsDir, name, "skills");
    const skillsRoot = existsSync(own) ? own : name === "corpus" ? corpus : undefined;
    if (skillsRoot === undefined || !existsSync(skillsRoot)) continue;
    sets.push(await loadSet(name, skillsRoot, path.join(setsDir, name, "requests.jsonl")));
  }
  if (sets.length >= 2) return sets;
  // The older requests: labelled by skill name, kinds description / body / none.
  const legacy: EvalSet[] = [];
  if (existsSync(corpus))
    legacy.push(await loadSet("corpus (queries.jsonl)", corpus, path.join(root, "eval/selection/queries.jsonl")));
  const fixture = path.join(root, "eval/selection/fixture");
  legacy.push(await loadSet("fixture", path.join(fixture, "skills"), path.join(fixture, "queries.jsonl")));
  return [...sets, ...legacy];
}

async function loadSet(name: string, skillsRoot: string, requestsFile: string): Promise<EvalSet> {
  // Each skill folder as a source of its own: collections nest skills deeper than discovery walks.
  const folders = readdirSync(skillsRoot, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "SKILL.md" && !file.split(path.sep).includes(".git"))
    .map((file) => path.join(skillsRoot, path.dirname(file)))
    .sort();
  const loaded = await loadSkills(folders);
  // SKILL.md skills only: the collections' README and LICENSE files are not skills.
  const skills = loaded.skills.filter((skill) => skill.source.format === "skill-md");
  const shadowed = loaded.diagnostics
    .filter((d) => d.code === "NAME_CLASH" && d.path !== undefined)
    .map((d) => path.relative(skillsRoot, path.dirname(d.path!)));
  const byFolder = new Map<string, string>();
  for (const skill of skills)
    if (skill.dir !== undefined) byFolder.set(path.relative(skillsRoot, skill.dir), skill.name);
  const byName = new Set(skills.map((s) => s.name));
  const requests: Labelled[] = [];
  const unlabelled: string[] = [];
  readFileSync(requestsFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .forEach((line, i) => {
      const raw = parseJson(line) as Record<string, unknown>;
      const text = String(raw["request"] ?? raw["query"] ?? "");
      const id = String(raw["id"] ?? `${name}-${i + 1}`);
      const labels = Array.isArray(raw["expect"])
        ? raw["expect"].map(String)
        : raw["expect"]
          ? [String(raw["expect"])]
          : [];
      const expect = labels.map((label) => byFolder.get(label) ?? (byName.has(label) ? label : undefined));
      if (expect.some((e) => e === undefined)) {
        unlabelled.push(id);
        return;
      }
      const kind = String(raw["kind"] ?? "");
      const answerIn = (
        kind === "none" || labels.length === 0
          ? "none"
          : String(raw["answer_in"] ?? (kind === "body" ? "body" : "description"))
      ) as Labelled["answerIn"];
      requests.push({ id, request: text, expect: [...new Set(expect as string[])], answerIn });
    });
  return { name, root: skillsRoot, skills, requests, unlabelled, shadowed };
}
