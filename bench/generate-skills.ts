/**
 * Writes N realistic Agent Skills for the scan benchmark: a SKILL.md with name, description,
 * license, metadata and allowed-tools, a ~300-word body, and one `references/` file each.
 * Output is deterministic (seeded), so every run scans the same bytes.
 *
 * Standalone: `packages/skillctx/node_modules/.bin/tsx bench/generate-skills.ts 1000` prints the folder.
 * The bench calls {@link ensureSkills}, which generates once into `.bench-data/` and reuses it.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mulberry32 } from "./bench-data.js";

/** Where generated data lives (gitignored). */
export const BENCH_DATA = fileURLToPath(new URL("../.bench-data/", import.meta.url));

// Bump when the generated shape changes, so stale data is regenerated.
const GENERATOR_VERSION = 3;

const TOPICS = [
  "data-pipeline",
  "code-review",
  "release-notes",
  "db-migrations",
  "api-design",
  "incident-triage",
  "load-testing",
  "feature-flags",
  "log-analysis",
  "dependency-audit",
  "schema-docs",
  "ci-caching",
  "k8s-rollout",
  "terraform-plan",
  "frontend-a11y",
  "graphql-schema",
  "queue-retries",
  "cache-tuning",
];
const CATEGORIES = ["data", "devops", "quality", "docs", "security", "frontend", "backend"];
const TOOLS = ["Read", "Grep", "Glob", "Bash", "Edit", "Write", "WebFetch"];
const WORDS = (
  "the agent should check each file before it changes anything and keep a short log of what was done " +
  "when a step fails report the command the exit code and the last lines of output then stop and ask " +
  "prefer small reversible changes run the tests after every change and compare the results with the " +
  "baseline numbers from the previous run use the project scripts rather than ad hoc commands keep " +
  "secrets out of logs never print tokens or passwords summarise findings in a table with one row per " +
  "service include links to dashboards and the owning team write dates in ISO format and times in UTC " +
  "confirm the target environment twice before applying migrations or deleting resources"
).split(" ");

/** Options for {@link generateSkills}. */
export interface GenerateSkillsOptions {
  /** Folder to fill; created if missing. */
  dir: string;
  /** How many skills to write. */
  count: number;
  /** PRNG seed. @default 42 */
  seed?: number;
}

/** Writes `count` skills under `dir` (`dir/<name>/SKILL.md` + `dir/<name>/references/guide.md`). */
export async function generateSkills(options: GenerateSkillsOptions): Promise<void> {
  const random = mulberry32(options.seed ?? 42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  await mkdir(options.dir, { recursive: true });
  const pending: Promise<void>[] = [];
  for (let i = 0; i < options.count; i++) {
    const topic = pick(TOPICS);
    const name = `${topic}-${String(i).padStart(5, "0")}`;
    const tools = [...new Set([pick(TOOLS), pick(TOOLS), pick(TOOLS)])].join(" ");
    const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
    const paragraphs = Array.from({ length: 4 }, () => `${capitalise(sentence(28))}. ${capitalise(sentence(30))}.`);
    const skill = [
      "---",
      `name: ${name}`,
      `description: Helps with ${topic.replace("-", " ")} work in service ${i}. Use when the user asks about ` +
        `${topic.replace("-", " ")}, ${sentence(6)}, or needs a checklist for it.`,
      "license: MIT",
      "metadata:",
      `  author: team-${pick(CATEGORIES)}`,
      `  version: "1.${i % 10}.${i % 7}"`,
      `  category: ${pick(CATEGORIES)}`,
      `allowed-tools: ${tools}`,
      "---",
      "",
      `# ${capitalise(topic.replace("-", " "))} (${i})`,
      "",
      "## When to use",
      "",
      paragraphs[0],
      "",
      "## Steps",
      "",
      `1. ${capitalise(sentence(20))}.`,
      `2. ${capitalise(sentence(20))}.`,
      `3. Read [the guide](references/guide.md) for ${sentence(8)}.`,
      "",
      ...paragraphs.slice(1).flatMap((p) => [p, ""]),
    ].join("\n");
    const reference = `# ${name} guide\n\n${capitalise(sentence(120))}.\n`;
    const folder = path.join(options.dir, name);
    pending.push(
      mkdir(path.join(folder, "references"), { recursive: true }).then(async () => {
        await writeFile(path.join(folder, "SKILL.md"), skill);
        await writeFile(path.join(folder, "references", "guide.md"), reference);
      }),
    );
    if (pending.length >= 256) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
}

/**
 * Returns the folder holding `count` generated skills under `.bench-data/`, generating it
 * once (a stamp file records the generator version and count).
 */
export async function ensureSkills(count: number): Promise<string> {
  const dir = path.join(BENCH_DATA, `skills-${count}`);
  const stamp = path.join(BENCH_DATA, `skills-${count}.stamp`);
  const expected = `${GENERATOR_VERSION}:${count}`;
  if (existsSync(stamp) && (await readFile(stamp, "utf8")) === expected) return dir;
  await rm(dir, { recursive: true, force: true });
  await generateSkills({ dir, count });
  await writeFile(stamp, expected);
  return dir;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// `tsx bench/generate-skills.ts 1000` generates into .bench-data/skills-1000.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const count = Number(process.argv[2] ?? "1000");
  console.log(await ensureSkills(count));
}
