// Git skill sources against a real bare repository served through file:// (real git, no network).
import { existsSync, readFileSync, readdirSync, renameSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeWithTool } from "./helpers/tools-present.js";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { resolveGitSource } from "../packages/sources/src/git-source.js";
import { gitRefProblem, gitUrlProblem } from "../packages/sources/src/git-source-names.js";
import { useEngineFixture } from "./helpers/engine-fixture.js";
import { gitRemote, skillMd } from "./helpers/git-remote.js";

const tempDir = useTempDirs("git-source");
const engine = useEngineFixture();

async function setup() {
  const dir = await tempDir();
  const remote = gitRemote(path.join(dir, "origin"));
  const cacheDir = path.join(dir, "cache");
  return { dir, remote, cacheDir };
}

describeWithTool("git")("resolveGitSource", () => {
  it("checks out the remote's HEAD into the cache by commit and lists its skill folders with digests", async () => {
    const { remote, cacheDir } = await setup();
    const commit = remote.commit({
      "skills/pdf/SKILL.md": skillMd("pdf"),
      "skills/pdf/ref.md": "notes",
      "skills/csv/SKILL.md": skillMd("csv"),
      "README.md": "hi",
    });
    const resolved = await resolveGitSource({ git: remote.url }, { cacheDir });
    expect(resolved.diagnostics).toEqual([]);
    expect(resolved.resolved.commit).toBe(commit);
    expect(resolved.key).toBe(`git:${remote.url}#`);
    expect(resolved.skills.map((s) => s.name)).toEqual(["csv", "pdf"]);
    const pdf = resolved.skills.find((s) => s.name === "pdf")!;
    expect(pdf.dir.startsWith(path.join(cacheDir, "git"))).toBe(true);
    expect(pdf.dir.split(path.sep)).toContain(commit);
    expect(readFileSync(path.join(pdf.dir, "ref.md"), "utf8")).toBe("notes");
    expect(pdf.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // No temp folders are left beside the published checkout.
    const repoDir = path.dirname(path.dirname(path.dirname(pdf.dir)));
    expect(readdirSync(repoDir).filter((n) => n.startsWith(".tmp-"))).toEqual([]);
  });

  it("resolves a branch, an annotated tag and a commit id to their commits", async () => {
    const { remote, cacheDir } = await setup();
    const first = remote.commit({ "SKILL.md": skillMd("one") });
    remote.git("tag", "-a", "-m", "release", "v1");
    remote.git("push", "--quiet", "origin", "v1");
    remote.git("checkout", "--quiet", "-b", "dev");
    const second = remote.commit({ "SKILL.md": skillMd("one", "Second.") });
    const byTag = await resolveGitSource({ git: remote.url, ref: "v1" }, { cacheDir });
    const byBranch = await resolveGitSource({ git: remote.url, ref: "dev" }, { cacheDir });
    const byCommit = await resolveGitSource({ git: remote.url, ref: first }, { cacheDir });
    expect([byTag.resolved.commit, byBranch.resolved.commit, byCommit.resolved.commit]).toEqual([first, second, first]);
    // A source folder that is itself a skill: one skill named after the folder.
    expect(byBranch.skills).toHaveLength(1);
    expect(readFileSync(path.join(byBranch.skills[0]!.dir, "SKILL.md"), "utf8")).toContain("Second.");
    expect(readFileSync(path.join(byTag.skills[0]!.dir, "SKILL.md"), "utf8")).not.toContain("Second.");
  });

  it("follows a branch that moved, keeping both commits in the cache", async () => {
    const { remote, cacheDir } = await setup();
    const before = remote.commit({ "s/a/SKILL.md": skillMd("a") });
    const first = await resolveGitSource({ git: remote.url, ref: "main" }, { cacheDir });
    const after = remote.commit({ "s/a/SKILL.md": skillMd("a", "Moved."), "s/b/SKILL.md": skillMd("b") });
    const second = await resolveGitSource({ git: remote.url, ref: "main" }, { cacheDir });
    expect(first.resolved.commit).toBe(before);
    expect(second.resolved.commit).toBe(after);
    expect(second.skills.map((s) => s.name)).toEqual(["a", "b"]);
    expect(second.skills[0]!.digest).not.toBe(first.skills[0]!.digest);
    expect(existsSync(first.skills[0]!.dir)).toBe(true);
  });

  it("reads only the folder `path` names, and refuses a path that leaves the repository", async () => {
    const { remote, cacheDir } = await setup();
    remote.commit({ "a/x/SKILL.md": skillMd("x"), "b/y/SKILL.md": skillMd("y") });
    const only = await resolveGitSource({ git: remote.url, path: "b" }, { cacheDir });
    expect(only.skills.map((s) => s.name)).toEqual(["y"]);
    expect(only.key).toBe(`git:${remote.url}#b`);
    const escape = await resolveGitSource({ git: remote.url, path: "../.." }, { cacheDir });
    expect(escape.skills).toEqual([]);
    expect(escape.diagnostics[0]).toMatchObject({ code: "GIT_SOURCE_INVALID", severity: "error" });
    const missing = await resolveGitSource({ git: remote.url, path: "nope" }, { cacheDir });
    expect(missing.diagnostics[0]).toMatchObject({ code: "GIT_PATH_NOT_FOUND" });
  });

  it("works offline from the cache once fetched, and falls back to it when the remote cannot be reached", async () => {
    const { remote, cacheDir } = await setup();
    const commit = remote.commit({ "k/SKILL.md": skillMd("k") });
    await resolveGitSource({ git: remote.url, ref: "main" }, { cacheDir });
    const offline = await resolveGitSource({ git: remote.url, ref: "main" }, { cacheDir, offline: true });
    expect(offline.resolved.commit).toBe(commit);
    expect(offline.skills.map((s) => s.name)).toEqual(["k"]);
    expect(offline.diagnostics.map((d) => d.code)).toEqual(["GIT_CACHED"]);

    renameSync(remote.bare, `${remote.bare}.gone`);
    const unreachable = await resolveGitSource({ git: remote.url, ref: "main" }, { cacheDir });
    expect(unreachable.resolved.commit).toBe(commit);
    expect(unreachable.skills).toHaveLength(1);
    expect(unreachable.diagnostics.map((d) => d.code)).toEqual(["GIT_UNREACHABLE", "GIT_CACHED"]);
  });

  it("offline with nothing cached is an error diagnostic, not a throw", async () => {
    const { remote, cacheDir } = await setup();
    remote.commit({ "SKILL.md": skillMd("z") });
    const result = await resolveGitSource({ git: remote.url }, { cacheDir, offline: true });
    expect(result.skills).toEqual([]);
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: "GIT_NOT_CACHED", severity: "error" })]);
  });

  it("checks out a locked commit instead of the ref's current commit", async () => {
    const { remote, cacheDir } = await setup();
    const old = remote.commit({ "SKILL.md": skillMd("p", "Old.") });
    remote.commit({ "SKILL.md": skillMd("p", "New.") });
    const pinned = await resolveGitSource({ git: remote.url, ref: "main" }, { cacheDir, lockedCommit: old });
    expect(pinned.resolved.commit).toBe(old);
    expect(readFileSync(path.join(pinned.skills[0]!.dir, "SKILL.md"), "utf8")).toContain("Old.");
  });
});

describe("URL and ref checks", () => {
  it("accepts https, ssh, git, file URLs and scp-like addresses; refuses the rest", () => {
    for (const ok of [
      "https://github.com/o/r.git",
      "ssh://git@host/o/r",
      "git://host/r",
      "file:///tmp/r.git",
      "git@github.com:o/r.git",
      "host:o/r",
    ]) {
      expect(gitUrlProblem(ok), ok).toBeUndefined();
    }
    for (const bad of [
      "ext::sh -c touch% /tmp/x",
      "-uhttps://x",
      "http://host/r",
      "fd::17",
      "/tmp/repo",
      "ftp://h/r",
      "ssh://-oProxyCommand=x/r",
      "https://h/r\nx",
      "-oProxyCommand=x:r",
    ]) {
      expect(gitUrlProblem(bad), bad).toBeDefined();
    }
  });

  it("refuses refs that git would read as options or refspecs", () => {
    for (const ok of ["main", "v1.2.0", "feature/x", "refs/pull/1/head", "0123456789abcdef0123456789abcdef01234567"])
      expect(gitRefProblem(ok), ok).toBeUndefined();
    for (const bad of [
      "--upload-pack=touch PWNED",
      "-x",
      "main:refs/heads/evil",
      "a..b",
      "a b",
      "x^{}",
      "@{-1}",
      "ref/",
      "",
    ])
      expect(gitRefProblem(bad), bad).toBeDefined();
  });
});

describeWithTool("git")("git sources in an AgentContext", () => {
  it("loads a git source's skills with scope remote and the source's name as origin", async () => {
    const { dir, remote, cacheDir } = await setup();
    remote.commit({ "skills/deploy/SKILL.md": skillMd("deploy") });
    const project = path.join(dir, "project");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(project);
    const ctx = await engine.context({
      cwd: project,
      sources: {
        userSkills: false,
        remote: {
          cacheDir,
          lock: "off",
        },
      },
      skills: [{ git: remote.url, name: "team" }],
    });
    const skill = ctx.skills.find((s) => s.name === "deploy");
    expect(skill?.source.scope).toBe("remote");
    expect(skill?.source.origin).toBe("team");
    expect(existsSync(path.join(project, "skills.lock.json"))).toBe(false);
  });
});
