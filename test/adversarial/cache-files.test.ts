/**
 * Caches read regular files only (issue 35, item 5). What skillctx reads back from a cache folder is
 * never opened blocking when it is a FIFO, a device, a socket or a symlink to one: it is ignored with a
 * CACHE_FILE_NOT_REGULAR warning.
 *
 * - Node's compile cache (https://nodejs.org/api/module.html#moduleenablecompilecachedirectory), turned on
 *   by the bin: Node reads an entry with a blocking read, so the break was `skillctx list` hanging until
 *   killed once an entry was replaced by a FIFO. The bin now keeps the cache in the user's skillctx cache
 *   folder and enables it only when that folder holds folders of regular files. On a Node without
 *   `module.enableCompileCache` (Node 20, which CI's slow pass runs) a stand-in preloaded with --import
 *   does what Node 22+ does with the folder it is given: it reads every entry with a blocking read.
 * - The remote-source caches: a git source's remembered refs (`refs.json`) and a URL source's `latest`
 *   pointer, read offline.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../../packages/core/src/testing/temp-dir.js";
import { assertBuilt, CLI, DEMO } from "../helpers/cli.js";
import { describeWithTool } from "../helpers/tools-present.js";
import { expectBounded, runIsolated } from "./isolated.js";

const tempDir = useTempDirs("adv-cache-files");
beforeAll(assertBuilt);

// Node 22+'s enableCompileCache reads each entry of the folder with a blocking read; a stand-in for a
// Node that lacks it (it also leaves one entry behind, as a first run does).
const STAND_IN = `
import fs from "node:fs"; import module from "node:module"; import os from "node:os"; import path from "node:path";
if (typeof module.enableCompileCache !== "function") {
  module.enableCompileCache = (dir = path.join(os.tmpdir(), "node-compile-cache")) => {
    const folder = path.join(dir, "v0-stand-in");
    fs.mkdirSync(folder, { recursive: true });
    if (fs.readdirSync(folder).length === 0) fs.writeFileSync(path.join(folder, "entry"), "code");
    for (const name of fs.readdirSync(folder)) fs.readFileSync(path.join(folder, name));
    return { status: 0, directory: dir };
  };
}
`;

// Runs the bin's `list` with its own HOME and TMPDIR; resolves with the exit code, stderr and the time.
function list(home: string, tmp: string, timeoutMs: number) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(STAND_IN)}`, CLI, "list", "--cwd", DEMO, "--no-user"],
    { env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: tmp }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: performance.now() - started });
    }),
  );
}

// Every regular file under the compile cache folders of `roots` (wherever the bin put them).
function cacheEntries(...roots: string[]): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) found.push(p);
    }
  };
  for (const root of roots) if (existsSync(root)) visit(root);
  return found.filter((f) => f.includes(`${path.sep}node-compile-cache${path.sep}`));
}

describe("the bin's compile cache", () => {
  it.each(["a FIFO", "a symlink to a FIFO"])(
    "a cache entry replaced by %s: `skillctx list` finishes (< 30 s) with a CACHE_FILE_NOT_REGULAR warning, exit 0",
    async (what) => {
      const home = await tempDir();
      const tmp = await tempDir();
      const first = await list(home, tmp, 60_000);
      expect(first.code, first.stderr).toBe(0);
      const entries = cacheEntries(home, tmp);
      expect(entries.length).toBeGreaterThan(0);
      const fifo = path.join(tmp, "fifo");
      execFileSync("mkfifo", [fifo]);
      for (const entry of entries) {
        rmSync(entry);
        if (what === "a FIFO") execFileSync("mkfifo", [entry]);
        else symlinkSync(fifo, entry);
      }
      const second = await list(home, tmp, 30_000);
      expect({ code: second.code, killed: second.ms >= 30_000 }).toEqual({ code: 0, killed: false });
      expect(second.stderr).toMatch(/CACHE_FILE_NOT_REGULAR .*compile cache is off/);
    },
  );
});

describeWithTool("git")("remote-source caches", () => {
  it("a git source's refs.json and a URL source's `latest` that are FIFOs are warnings offline, never a hang (< 20 s, < 400 MB)", async () => {
    const run = await runIsolated<{ git: string[]; gitCommit: string | undefined; url: string[] }>(
      `
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { resolveGitSource } from "@skillctx/sources/git-source";
import { resolveUrlSource } from "@skillctx/sources/url-source";
import { locationKey } from "@skillctx/sources/cache-dir";
export default async () => {
  const temp = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-cache-files-")));
  const work = path.join(temp, "work");
  mkdirSync(work);
  const git = (...a) => execFileSync("git", a, { cwd: work, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q", "-b", "main"); writeFileSync(path.join(work, "SKILL.md"), "---\\nname: w\\ndescription: d\\n---\\n"); git("add", "-A"); git("commit", "-q", "-m", "x");
  const url = pathToFileURL(work).href;
  const cacheDir = path.join(temp, "cache");
  const online = await resolveGitSource({ git: url, ref: "main" }, { cacheDir });
  if (online.diagnostics.length > 0) throw new Error(JSON.stringify(online.diagnostics));
  const refs = path.join(cacheDir, "git", locationKey(url), "refs.json");
  rmSync(refs);
  execFileSync("mkfifo", [refs]);
  const offline = await resolveGitSource({ git: url, ref: "main" }, { cacheDir, offline: true });
  const indexUrl = "https://skills.example/.well-known/agent-skills/index.json";
  const home = path.join(cacheDir, "url", locationKey(indexUrl));
  mkdirSync(home, { recursive: true });
  execFileSync("mkfifo", [path.join(home, "latest")]);
  const cached = await resolveUrlSource({ url: indexUrl }, { cacheDir, offline: true });
  rmSync(temp, { recursive: true, force: true });
  return { git: offline.diagnostics.map((d) => d.code), gitCommit: offline.resolved.commit, url: cached.diagnostics.map((d) => d.code) };
};
`,
      { timeoutMs: 40_000 },
    );
    const out = expectBounded(run, { ms: 20_000, mb: 400 }, "cache FIFOs");
    expect(out.git).toContain("CACHE_FILE_NOT_REGULAR");
    // The newest cached checkout stands in, as when refs.json is missing.
    expect(out.gitCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(out.url).toEqual(["CACHE_FILE_NOT_REGULAR", "URL_NOT_CACHED"]);
  });
});
