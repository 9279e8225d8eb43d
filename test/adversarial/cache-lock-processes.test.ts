/**
 * The remote-source cache is locked between processes (issue 35, item 3): four `skillctx sync` runs at
 * once (the BUILT CLI, four processes) on one git source and one cache all succeed. The break: the lock
 * was a chain of promises inside one process, so the processes collided on git's own `shallow.lock` in
 * the shared cache repository and 6 of 8 resolutions failed with GIT_FETCH_FAILED. A lock left behind by
 * a process that died is stale once unrefreshed for CACHE_LOCK_STALE_MS and is taken over
 * (proper-lockfile's rule: https://github.com/moxystudio/node-proper-lockfile#lockfile-options).
 * The remote is a real local git repository served through file://.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { useTempDirs } from "../../packages/core/src/testing/temp-dir.js";
import { locationKey } from "../../packages/sources/src/cache-dir.js";
import { CACHE_LOCK_STALE_MS } from "../../packages/sources/src/limits.js";
import { assertBuilt, runCli } from "../helpers/cli.js";
import { gitRemote, skillMd } from "../helpers/git-remote.js";
import { describeWithTool } from "../helpers/tools-present.js";

const tempDir = useTempDirs("adv-cache-lock");
beforeAll(assertBuilt);

// A remote with two skill folders, and `count` projects that each list both (same URL, two paths).
async function setup(count: number) {
  const dir = await tempDir();
  const remote = gitRemote(path.join(dir, "origin"));
  const files: Record<string, string> = {};
  // Enough files that a fetch and checkout take a while: the runs overlap.
  for (let i = 0; i < 200; i++) files[`a/s${i % 4}/ref-${i}.md`] = `${"text ".repeat(400)}${i}\n`;
  for (let i = 0; i < 4; i++) files[`a/s${i}/SKILL.md`] = skillMd(`s${i}`);
  files["b/t0/SKILL.md"] = skillMd("t0");
  remote.commit(files);
  const home = path.join(dir, "home");
  mkdirSync(home);
  const projects = Array.from({ length: count }, (_, i) => {
    const project = path.join(dir, `project-${i}`);
    mkdirSync(project);
    writeFileSync(
      path.join(project, "skills.json"),
      JSON.stringify({
        sources: [
          { git: remote.url, ref: "main", path: "a" },
          { git: remote.url, ref: "main", path: "b" },
        ],
      }),
    );
    return project;
  });
  return { remote, home, projects };
}

describeWithTool("git")("remote-source cache locks between processes", () => {
  it("four `skillctx sync` processes at once on one git source and one cache all succeed", async () => {
    for (let round = 0; round < 2; round++) {
      const { home, projects } = await setup(4);
      const runs = await Promise.all(projects.map((project) => runCli(["sync", "--cwd", project], { home })));
      for (const run of runs) {
        expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
        expect(run.stdout).toContain("#a");
        expect(run.stdout).toContain("#b");
      }
    }
  });

  it("a lock left by a process that died (unrefreshed past CACHE_LOCK_STALE_MS) is taken over; sync succeeds", async () => {
    const { remote, home, projects } = await setup(1);
    const repoDir = path.join(home, ".cache/skillctx/git", locationKey(remote.url));
    mkdirSync(`${repoDir}.lock`, { recursive: true });
    const old = new Date(Date.now() - 2 * CACHE_LOCK_STALE_MS);
    utimesSync(`${repoDir}.lock`, old, old);
    const run = await runCli(["sync", "--cwd", projects[0]!], { home });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  });

  it("a lock path that is a file, not a lock folder, is a CACHE_LOCK_FAILED error naming it, never a hang", async () => {
    const { remote, home, projects } = await setup(1);
    const repoDir = path.join(home, ".cache/skillctx/git", locationKey(remote.url));
    mkdirSync(path.dirname(repoDir), { recursive: true });
    writeFileSync(`${repoDir}.lock`, "not a lock");
    const old = new Date(Date.now() - 2 * CACHE_LOCK_STALE_MS);
    utimesSync(`${repoDir}.lock`, old, old);
    const started = performance.now();
    const run = await runCli(["sync", "--cwd", projects[0]!], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("CACHE_LOCK_FAILED");
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
