// skills.lock.json: written under lock "update", enforced under "frozen", ignored under "off"; and `skillctx sync`.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeAll, expect, it } from "vitest";
import { describeWithTool } from "./helpers/tools-present.js";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { lockfileText, readLockfile } from "../packages/sources/src/lockfile.js";
import { resolveSources } from "../packages/sources/src/resolve-sources.js";
import type { RemoteContext, SourceInput } from "../packages/sources/src/types.js";
import { assertBuilt, runCli, cliJson } from "./helpers/cli.js";
import { gitRemote, skillMd } from "./helpers/git-remote.js";
import { indexOf, skillSite } from "./helpers/skill-site.js";
import type { SkillSite } from "./helpers/skill-site.js";

const tempDir = useTempDirs("lockfile");
const sites: SkillSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

async function setup() {
  const dir = await tempDir();
  const remote = gitRemote(path.join(dir, "origin"));
  const project = path.join(dir, "project");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(project);
  const context = (lock: RemoteContext["lock"], cacheDir = path.join(dir, "cache")): RemoteContext => ({
    cwd: project,
    cacheDir,
    lock,
  });
  return { dir, remote, project, context, lockFile: path.join(project, "skills.lock.json") };
}

describeWithTool("git")("lock: update", () => {
  it("records each source's commit, ref and skill digests in stable JSON, and rewrites only on change", async () => {
    const { remote, context, lockFile } = await setup();
    const commit = remote.commit({ "skills/b/SKILL.md": skillMd("b"), "skills/a/SKILL.md": skillMd("a") });
    const sources: SourceInput[] = [{ git: remote.url, ref: "main", path: "skills" }];
    const first = await resolveSources(sources, context("update"));
    expect(first.diagnostics).toEqual([]);
    const text = readFileSync(lockFile, "utf8");
    const lock = JSON.parse(text) as {
      version: number;
      sources: Record<string, { commit: string; ref: string; skills: Record<string, string> }>;
    };
    expect(lock.version).toBe(1);
    const entry = lock.sources[`git:${remote.url}#skills`]!;
    expect(entry).toEqual({
      commit,
      ref: "main",
      skills: { a: first.remote[0]!.skills[0]!.digest, b: first.remote[0]!.skills[1]!.digest },
    });
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toBe(lockfileText(lock as never));
    expect(Object.keys(entry)).toEqual(["commit", "ref", "skills"]);

    const inode = statSync(lockFile).ino;
    await resolveSources(sources, context("update"));
    expect(statSync(lockFile).ino).toBe(inode);

    const moved = remote.commit({ "skills/a/SKILL.md": skillMd("a", "Changed.") });
    await resolveSources(sources, context("update"));
    expect(JSON.parse(readFileSync(lockFile, "utf8")).sources[`git:${remote.url}#skills`].commit).toBe(moved);
  });

  it("keeps the entry of a source that failed, and the entries of other sources", async () => {
    const { remote, context, lockFile } = await setup();
    remote.commit({ "SKILL.md": skillMd("x") });
    await resolveSources([{ git: remote.url }], context("update"));
    const before = readFileSync(lockFile, "utf8");
    const failed = await resolveSources([{ git: remote.url, path: "missing" }, { git: remote.url }], context("update"));
    expect(failed.diagnostics.map((d) => d.code)).toContain("GIT_PATH_NOT_FOUND");
    expect(readFileSync(lockFile, "utf8")).toBe(before);
  });
});

describeWithTool("git")("lock: update, offline", () => {
  it("a stale cached commit used offline does not overwrite the commit the lock records", async () => {
    const { dir, remote, project, lockFile } = await setup();
    const sources: SourceInput[] = [{ git: remote.url, ref: "main" }];
    remote.commit({ "SKILL.md": skillMd("o", "A.") });
    const oldCache = path.join(dir, "old-cache");
    await resolveSources(sources, { cwd: project, cacheDir: oldCache, lock: "update" });
    const newer = remote.commit({ "SKILL.md": skillMd("o", "B.") });
    await resolveSources(sources, { cwd: project, cacheDir: path.join(dir, "new-cache"), lock: "update" });
    const offline = await resolveSources(sources, { cwd: project, cacheDir: oldCache, lock: "update", offline: true });
    expect(offline.diagnostics.map((d) => d.code)).toEqual(["GIT_CACHED", "LOCK_NOT_UPDATED"]);
    expect(JSON.parse(readFileSync(lockFile, "utf8")).sources[`git:${remote.url}#`].commit).toBe(newer);
  });
});

describeWithTool("git")("lock: frozen", () => {
  it("checks out the locked commit when the branch moved (not drift), and loads those bytes", async () => {
    const { remote, context } = await setup();
    const old = remote.commit({ "k/SKILL.md": skillMd("k", "Old.") });
    const sources: SourceInput[] = [{ git: remote.url, ref: "main" }];
    await resolveSources(sources, context("update"));
    remote.commit({ "k/SKILL.md": skillMd("k", "New.") });
    const frozen = await resolveSources(
      sources,
      context("frozen", path.join(path.dirname(context("off").cacheDir), "other-machine-cache")),
    );
    expect(frozen.diagnostics).toEqual([]);
    expect(frozen.remote[0]!.resolved.commit).toBe(old);
    expect(readFileSync(path.join(frozen.remote[0]!.skills[0]!.dir, "SKILL.md"), "utf8")).toContain("Old.");
  });

  it("refuses a source whose ref changed, one not in the lock, and one whose cached bytes were altered", async () => {
    const { remote, context } = await setup();
    remote.commit({ "k/SKILL.md": skillMd("k") });
    remote.git("tag", "v1");
    remote.git("push", "--quiet", "origin", "v1");
    const locked = await resolveSources([{ git: remote.url, ref: "main" }], context("update"));

    const otherRef = await resolveSources([{ git: remote.url, ref: "v1" }], context("frozen"));
    expect(otherRef.remote[0]!.skills).toEqual([]);
    expect(otherRef.diagnostics).toEqual([expect.objectContaining({ code: "LOCK_MISMATCH", severity: "error" })]);
    expect(otherRef.diagnostics[0]!.message).toContain("the ref is v1");

    const unknown = await resolveSources([{ git: remote.url, path: "k" }], context("frozen"));
    expect(unknown.diagnostics[0]).toMatchObject({ code: "LOCK_MISMATCH" });
    expect(unknown.diagnostics[0]!.message).toContain("not in skills.lock.json");

    await appendFile(path.join(locked.remote[0]!.skills[0]!.dir, "SKILL.md"), "\nInjected.\n");
    const altered = await resolveSources([{ git: remote.url, ref: "main" }], context("frozen"));
    expect(altered.remote[0]!.skills).toEqual([]);
    expect(altered.diagnostics.at(-1)).toMatchObject({ code: "LOCK_MISMATCH" });
    expect(altered.diagnostics.at(-1)!.message).toContain("k changed");
  });

  it("URL source: the locked index's cached copy is used; on a machine without it, changed content is refused", async () => {
    const { context, lockFile } = await setup();
    const md = skillMd("doc");
    const site = await skillSite({
      "/.well-known/agent-skills/index.json": { body: indexOf([{ name: "doc", url: "doc.md", bytes: md }]) },
      "/.well-known/agent-skills/doc.md": { body: md },
    });
    sites.push(site);
    const sources: SourceInput[] = [{ url: site.base }];
    await resolveSources(sources, context("update"));
    const lockBefore = readFileSync(lockFile, "utf8");

    const changed = skillMd("doc", "Changed on the server.");
    site.routes.set("/.well-known/agent-skills/index.json", {
      body: indexOf([{ name: "doc", url: "doc.md", bytes: changed }]),
    });
    site.routes.set("/.well-known/agent-skills/doc.md", { body: changed });

    const sameMachine = await resolveSources(sources, context("frozen"));
    expect(sameMachine.diagnostics).toEqual([]);
    expect(readFileSync(path.join(sameMachine.remote[0]!.skills[0]!.dir, "SKILL.md"), "utf8")).toBe(md);

    const newMachine = await resolveSources(
      sources,
      context("frozen", path.join(path.dirname(lockFile), "fresh-cache")),
    );
    expect(newMachine.remote[0]!.skills).toEqual([]);
    expect(newMachine.diagnostics.at(-1)).toMatchObject({ code: "LOCK_MISMATCH" });
    expect(readFileSync(lockFile, "utf8")).toBe(lockBefore);
  });

  it("an invalid lockfile refuses every source under frozen", async () => {
    const { remote, context, lockFile } = await setup();
    remote.commit({ "SKILL.md": skillMd("x") });
    writeFileSync(lockFile, "{ not json");
    const result = await resolveSources([{ git: remote.url }], context("frozen"));
    expect(result.diagnostics.map((d) => d.code)).toEqual(["LOCK_INVALID", "LOCK_MISMATCH"]);
    expect(result.remote[0]!.skills).toEqual([]);
  });
});

describeWithTool("git")("lock: off", () => {
  it("neither reads nor writes the lockfile", async () => {
    const { remote, context, lockFile } = await setup();
    remote.commit({ "SKILL.md": skillMd("x") });
    const result = await resolveSources([{ git: remote.url }], context("off"));
    expect(result.diagnostics).toEqual([]);
    expect(existsSync(lockFile)).toBe(false);
    writeFileSync(lockFile, "garbage");
    expect((await resolveSources([{ git: remote.url }], context("off"))).diagnostics).toEqual([]);
    expect(readFileSync(lockFile, "utf8")).toBe("garbage");
    expect((await readLockfile(path.dirname(lockFile))).diagnostics[0]?.code).toBe("LOCK_INVALID");
  });
});

describeWithTool("git")("skillctx sync (built CLI)", () => {
  beforeAll(() => assertBuilt());

  it("writes the lock from skills.json, then --frozen refuses drift with exit 1 and writes nothing", async () => {
    const { dir, remote, project, lockFile } = await setup();
    const home = path.join(dir, "home");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(home);
    remote.commit({ "skills/s1/SKILL.md": skillMd("s1") });
    writeFileSync(
      path.join(project, "skills.json"),
      JSON.stringify({ sources: [{ git: remote.url, ref: "main", path: "skills" }] }),
    );

    const synced = await runCli(["sync", "--cwd", project], { home });
    expect(synced.stderr).toBe("");
    expect(synced.code).toBe(0);
    expect(synced.stdout).toContain(`git:${remote.url}#skills`);
    expect(existsSync(path.join(home, ".cache/skillctx/git"))).toBe(true);
    const lock = readFileSync(lockFile, "utf8");

    const frozenOk = await runCli(["sync", "--cwd", project, "--frozen", "--json"], { home });
    expect(frozenOk.code).toBe(0);
    expect(cliJson(frozenOk.stdout).sources[0].ok).toBe(true);

    remote.git("tag", "v2");
    remote.git("push", "--quiet", "origin", "v2");
    writeFileSync(
      path.join(project, "skills.json"),
      JSON.stringify({ sources: [{ git: remote.url, ref: "v2", path: "skills" }] }),
    );
    const drift = await runCli(["sync", "--cwd", project, "--frozen"], { home });
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain("LOCK_MISMATCH");
    expect(readFileSync(lockFile, "utf8")).toBe(lock);

    // Without --frozen: the lock follows skills.json, and an entry no longer listed is pruned.
    writeFileSync(path.join(project, "skills.json"), JSON.stringify({ sources: [{ git: remote.url, ref: "v2" }] }));
    const resync = await runCli(["sync", "--cwd", project], { home });
    expect(resync.code).toBe(0);
    expect(resync.stdout).toContain(`pruned  git:${remote.url}#skills`);
    expect(Object.keys(JSON.parse(readFileSync(lockFile, "utf8")).sources)).toEqual([`git:${remote.url}#`]);
  });

  it("without skills.json: an error naming the file, exit 1", async () => {
    const { dir, project } = await setup();
    const run = await runCli(["sync", "--cwd", project], { home: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("SOURCES_FILE_MISSING");
  });
});
