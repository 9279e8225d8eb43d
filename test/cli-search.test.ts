/**
 * `skillctx search "request" [--explain]` (issues 26, 33): the ranking search_skills makes over the skills an
 * agent in --cwd sees, where its weak matches (low confidence) start, and the words that matched; and `skillctx validate`'s
 * DESCRIPTION_UNREACHABLE warning for a description no likely request would reach.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliJson } from "./helpers/cli.js";
import { runCli } from "../packages/cli/src/run.js";

const FIXTURE = path.resolve(import.meta.dirname, "../eval/selection/fixture/skills");
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function cli(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

async function emptyCwd(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-cli-search-")));
  dirs.push(dir);
  return dir;
}

describe("skillctx search", () => {
  it("ranks the skills for a request and, with --explain, shows the words that matched and where", async () => {
    const cwd = await emptyCwd();
    const run = await cli([
      "search",
      "my kubernetes pod keeps crashing",
      "--cwd",
      cwd,
      "--no-user",
      "--skills",
      FIXTURE,
      "--explain",
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe('request: "my kubernetes pod keeps crashing"');
    expect(lines[1]).toBe("words searched: kubernete pod keep crashing");
    expect(lines[2]).toMatch(/^ 1\. k8s-debug\s+\d+\.\d\d$/);
    expect(run.stdout).toContain("      kubernete: body, description, headings");
  });

  it("says when even the best match is weak, when no word matches, and when a request is only stop words", async () => {
    const cwd = await emptyCwd();
    const none = await cli(["search", "please help me with this", "--cwd", cwd, "--no-user", "--skills", FIXTURE]);
    expect(none.stdout).toContain("words searched: (none: only stop words)");
    expect(none.stdout).toContain("search_skills answers that no skill matches");
    const unknown = await cli(["search", "weather in Oslo", "--cwd", cwd, "--no-user", "--skills", FIXTURE, "--json"]);
    const value = cliJson(unknown.stdout) as { results: unknown[]; terms: string[] };
    expect(value.terms).toEqual(["weather", "oslo"]);
    expect(value.results).toEqual([]);
    const weak = await cli(["search", "order a pizza", "--cwd", cwd, "--no-user", "--skills", FIXTURE, "--json"]);
    const weakValue = cliJson(weak.stdout) as { results: { confidence: string }[] };
    expect(weakValue.results.length).toBeGreaterThan(0);
    expect(weakValue.results.every((r) => r.confidence === "low")).toBe(true);
    const text = await cli(["search", "order a pizza", "--cwd", cwd, "--no-user", "--skills", FIXTURE]);
    expect(text.stdout).toContain("-- no skill clearly matches");
  });

  it("wants a request", async () => {
    const run = await cli(["search", "--no-user"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("expected a REQUEST");
  });
});

describe("skillctx validate: DESCRIPTION_UNREACHABLE", () => {
  it("warns on a description with almost no words beyond the name, never under --strict", async () => {
    const dir = await emptyCwd();
    const folder = path.join(dir, "pdf-helper");
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "SKILL.md"), "---\nname: pdf-helper\ndescription: PDF helper.\n---\nBody.\n");
    const run = await cli(["validate", folder]);
    expect(run.stdout).toContain("DESCRIPTION_UNREACHABLE");
    expect(run.stdout).toContain("no word besides the name");
    expect((await cli(["validate", folder, "--strict"])).stdout).not.toContain("DESCRIPTION_UNREACHABLE");
  });

  it('counts an acronym\'s plural as one word, as search does (issue 33: "URLs" is not "urls", "ur" and "ls")', async () => {
    const dir = await emptyCwd();
    const folder = path.join(dir, "web-fetcher");
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "SKILL.md"), "---\nname: web-fetcher\ndescription: Fetch URLs.\n---\nBody.\n");
    const run = await cli(["validate", folder]);
    expect(run.stdout).toContain("only 2 words besides the name (fetch, urls)");
  });
});
