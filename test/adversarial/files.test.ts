/**
 * Adversarial tests of file access (issue 10, H1): symlinks out of the project, special files,
 * oversize and one-line files, a dotfiles repository at the home folder. Every attack runs in a
 * fresh process (runIsolated) and each test names the time and memory bound it checks.
 */
import { afterAll, expect, it } from "vitest";
import { describeWithTool } from "../helpers/tools-present.js";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expectBounded, runIsolated } from "./isolated.js";
import type { IsolatedResult } from "./isolated.js";
import { compareCodePoints } from "../../packages/core/src/code-point-order.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUILD_COMMAND = pathToFileURL(path.join(ROOT, "packages/cli/src/build.ts")).href;

// A marker in the child's environment: /proc/self/environ of the child holds it.
const ENV_SECRET = "SKILLCTX_ADVERSARIAL_ENV_SECRET_7f3a";
process.env["SKILLCTX_ADV_SECRET"] = ENV_SECRET;

// Shared by the scripts: a fake home with a secret, a git repository, and helpers.
const PRELUDE = `
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, truncateSync, rmSync, realpathSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
const SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- adversarial-secret-1b2c";
const ENV_SECRET = ${JSON.stringify(ENV_SECRET)};
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-files-")));
const home = path.join(base, "home");
const repo = path.join(base, "repo");
function put(file, text) { mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, text); return file; }
function link(target, file) { mkdirSync(path.dirname(file), { recursive: true }); symlinkSync(target, file); }
put(path.join(home, ".ssh/id_rsa"), SECRET + "\\n");
put(path.join(home, "private/notes.md"), "---\\nname: private-notes\\ndescription: private\\n---\\n" + SECRET + "\\n");
mkdirSync(repo, { recursive: true });
execFileSync("git", ["init", "--quiet", repo]);
const leaks = (value) => { const text = JSON.stringify(value); return text.includes("adversarial-secret-1b2c") || text.includes(ENV_SECRET) || text.includes("root:x:0:0"); };
const cleanup = () => rmSync(base, { recursive: true, force: true });
`;

const figures: Array<{ test: string; wallMs: number; maxRssMb: number }> = [];
function bounded<T>(name: string, result: IsolatedResult<T>, bounds: { ms: number; mb: number }): T {
  figures.push({ test: name, wallMs: Math.round(result.wallMs), maxRssMb: Math.round(result.maxRssMb) });
  return expectBounded(result, bounds, name);
}

describeWithTool("git")("adversarial: symlinks out of the project", () => {
  it("discovery reads no project skill that links to a secret, a folder, /, /etc/passwd, /proc/self/environ or /dev/zero (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ names: string[]; outside: string[]; leaked: boolean; codes: string[] }>(
      `${PRELUDE}
import { discoverSkills, createSkillCache } from "@skillctx/core";
export default async () => {
  const micro = path.join(repo, ".openhands/microagents");
  put(path.join(micro, "good.md"), "---\\nname: good\\ndescription: a sibling that loads\\n---\\nGood.\\n");
  link(path.join(home, ".ssh/id_rsa"), path.join(micro, "notes.md"));
  link("/etc/passwd", path.join(micro, "passwd.md"));
  link("/proc/self/environ", path.join(micro, "environ.md"));
  link("/dev/zero", path.join(micro, "zero.md"));
  link(path.join(home, "private"), path.join(micro, "private"));
  link("/", path.join(micro, "root"));
  link(path.join(home, ".ssh/id_rsa"), path.join(repo, ".claude/skills/key/SKILL.md"));
  link(path.join(home, "private"), path.join(repo, ".agents/skills"));
  const found = await discoverSkills({ cwd: repo, homeDir: home, cache: createSkillCache() });
  const value = {
    names: found.skills.map((s) => s.name),
    outside: found.diagnostics.filter((d) => d.code === "PATH_OUTSIDE_ROOT").map((d) => path.relative(repo, d.path)).sort(),
    codes: [...new Set(found.diagnostics.map((d) => d.code))],
    leaked: leaks(found) || leaks(found.skills.map((s) => s.content)),
  };
  cleanup();
  return value;
};`,
      { timeoutMs: 30_000 },
    );
    const value = bounded("symlinks out, discovery", result, { ms: 5_000, mb: 300 });
    expect(value.names).toEqual(["good"]);
    expect(value.leaked).toBe(false);
    expect(value.codes).toEqual(["PATH_OUTSIDE_ROOT"]);
    expect(value.outside).toEqual(
      [
        ".agents/skills",
        ".claude/skills/key/SKILL.md",
        ".openhands/microagents/environ.md",
        ".openhands/microagents/notes.md",
        ".openhands/microagents/passwd.md",
        ".openhands/microagents/private",
        ".openhands/microagents/root",
        ".openhands/microagents/zero.md",
      ].sort(compareCodePoints),
    );
  }, 40_000);

  it("AgentContext.create + buildContext with default options never put the secret in system or a message; the good skill loads (< 10 s, < 400 MB)", async () => {
    const result = await runIsolated<{
      system: boolean;
      messages: boolean;
      built: boolean;
      hasGood: boolean;
      loaded: boolean;
      diagnostics: string[];
    }>(
      `${PRELUDE}
import { AgentContext } from "skillctx";
import { buildCommand } from ${JSON.stringify(BUILD_COMMAND)};
export default async () => {
  const micro = path.join(repo, ".openhands/microagents");
  put(path.join(micro, "good.md"), "---\\nname: good\\ndescription: always on\\n---\\nGOOD-ALWAYS-ON-TEXT\\n");
  put(path.join(repo, ".agents/skills/helper/SKILL.md"), "---\\nname: helper\\ndescription: Helps with forms.\\n---\\nHELPER BODY\\n");
  link(path.join(home, ".ssh/id_rsa"), path.join(micro, "notes.md"));
  link("/proc/self/environ", path.join(micro, "environ.md"));
  link("/etc/passwd", path.join(repo, "AGENTS.md"));
  link(path.join(home, ".ssh/id_rsa"), path.join(repo, "CLAUDE.md"));
  link(path.join(home, ".ssh"), path.join(repo, ".agents/skills/ssh"));
  const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home } });
  const step = await ctx.buildContext([{ role: "user", content: "hello, use notes and environ" }]);
  const loaded = await ctx.callTool("load_skill", { name: "helper" });
  const after = await ctx.buildContext([{ role: "user", content: "hello" }, { role: "assistant", content: "ok" }, { role: "user", content: "notes" }]);
  await ctx.close();
  // skillctx build prints system and messages: the same must hold there.
  let printed = "";
  const io = { stdout: { write: (t) => { printed += t; } }, stderr: { write: (t) => { printed += t; } } };
  await buildCommand.run(["--cwd", repo, "--no-user", "-m", "notes", "--json"], io);
  cleanup();
  return {
    system: leaks(step.system) || leaks(after.system),
    messages: leaks(step.messages) || leaks(after.messages) || leaks(loaded),
    built: leaks(printed),
    hasGood: step.system.includes("GOOD-ALWAYS-ON-TEXT"),
    loaded: loaded.content.includes("HELPER BODY"),
    diagnostics: [...new Set(step.diagnostics.map((d) => d.code))].sort(),
  };
};`,
      { timeoutMs: 30_000 },
    );
    const value = bounded("end to end, AgentContext + build", result, { ms: 10_000, mb: 400 });
    expect(value).toMatchObject({ system: false, messages: false, built: false, hasGood: true, loaded: true });
    expect(value.diagnostics).toContain("PATH_OUTSIDE_ROOT");
  }, 40_000);

  it("a dotfiles git repository at the home folder does not put ~/.ssh inside the project (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ leaked: boolean; names: string[]; codes: string[] }>(
      `${PRELUDE}
import { AgentContext } from "skillctx";
export default async () => {
  execFileSync("git", ["init", "--quiet", home]);
  put(path.join(home, ".agents/skills/dot/SKILL.md"), "---\\nname: dot\\ndescription: in the dotfiles repo\\n---\\nx\\n");
  const cwd = path.join(home, "code/project");
  put(path.join(cwd, "README.md"), "project\\n");
  link("../../../../.ssh/id_rsa", path.join(cwd, ".openhands/microagents/notes.md"));
  link("../../.ssh/id_rsa", path.join(cwd, "AGENTS.md"));
  put(path.join(cwd, "CLAUDE.md"), "See @../../.ssh/id_rsa and @~/.ssh/id_rsa\\n");
  const ctx = await AgentContext.create({ cwd, sources: { homeDir: home } });
  const step = await ctx.buildContext([{ role: "user", content: "notes" }]);
  await ctx.close();
  cleanup();
  return { leaked: leaks(step.system) || leaks(step.messages), names: ctx.skills.map((s) => s.name), codes: [...new Set(step.diagnostics.map((d) => d.code))].sort() };
};`,
      { timeoutMs: 30_000 },
    );
    const value = bounded("dotfiles repository at home", result, { ms: 5_000, mb: 300 });
    expect(value.leaked).toBe(false);
    expect(value.names).toEqual(["claude"]);
    expect(value.codes).toEqual(expect.arrayContaining(["GUIDANCE_OUTSIDE_REPOSITORY", "PATH_OUTSIDE_ROOT"]));
  }, 40_000);
});

describeWithTool("git")("adversarial: special files", () => {
  it("FIFOs and a socket named like skills, guidance and resources never block a scan, a step or a tool (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ names: string[]; codes: string[]; resource: string; fifoSkill: string }>(
      `${PRELUDE}
import { AgentContext } from "skillctx";
export default async () => {
  const fifo = (file) => { mkdirSync(path.dirname(file), { recursive: true }); execFileSync("mkfifo", [file]); };
  fifo(path.join(repo, ".openhands/microagents/pipe.md"));
  fifo(path.join(repo, ".agents/skills/piped/SKILL.md"));
  fifo(path.join(repo, "AGENTS.md"));
  fifo(path.join(repo, ".cursor/rules/pipe.mdc"));
  fifo(path.join(repo, "server/CLAUDE.md"));
  const server = createServer();
  mkdirSync(path.join(repo, ".claude/skills"), { recursive: true });
  await new Promise((resolve) => server.listen(path.join(repo, ".claude/skills/sock.md"), resolve));
  const skillDir = path.join(base, "programmatic/forms");
  put(path.join(skillDir, "SKILL.md"), "---\\nname: forms\\ndescription: Forms.\\n---\\nForms body.\\n");
  fifo(path.join(skillDir, "references/pipe.md"));
  put(path.join(repo, ".openhands/microagents/ok.md"), "---\\nname: ok\\ndescription: ok\\n---\\nok\\n");
  const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home }, skills: [skillDir] });
  const step = await ctx.buildContext([{ role: "user", content: "hi" }]);
  const resource = await ctx.callTool("read_skill_resource", { name: "forms", path: "references/pipe.md" });
  const loaded = await ctx.callTool("load_skill", { name: "forms" });
  await ctx.close();
  await new Promise((resolve) => server.close(resolve));
  cleanup();
  return {
    names: ctx.skills.map((s) => s.name),
    codes: [...new Set(step.diagnostics.map((d) => d.code))].sort(),
    resource: resource.content,
    fifoSkill: loaded.content.includes("pipe.md") ? "listed" : "not listed",
  };
};`,
      { timeoutMs: 30_000 },
    );
    const value = bounded("FIFOs and a socket", result, { ms: 5_000, mb: 300 });
    expect(value.names).toEqual(["forms", "ok"]);
    expect(value.codes).toEqual(expect.arrayContaining(["GUIDANCE_NOT_A_FILE", "NOT_A_FILE"]));
    expect(value.resource).toContain("not a regular file");
    expect(value.fifoSkill).toBe("not listed");
  }, 40_000);
});

describeWithTool("git")("adversarial: oversize files", () => {
  it("a sparse 600 MB legacy skill and a 600 MB SKILL.md become TOO_LARGE diagnostics; create does not throw (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ names: string[]; tooLarge: string[]; system: number }>(
      `${PRELUDE}
import { AgentContext } from "skillctx";
export default async () => {
  const legacy = put(path.join(repo, ".openhands/microagents/huge.md"), "");
  truncateSync(legacy, 600 * 1024 * 1024);
  const skill = put(path.join(repo, ".agents/skills/huge/SKILL.md"), "---\\nname: huge\\ndescription: big\\n---\\n");
  truncateSync(skill, 600 * 1024 * 1024);
  put(path.join(repo, ".openhands/microagents/small.md"), "---\\nname: small\\ndescription: s\\n---\\nsmall\\n");
  const guidance = put(path.join(repo, "AGENTS.md"), "# Guidance\\n");
  truncateSync(guidance, 600 * 1024 * 1024);
  const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home } });
  const step = await ctx.buildContext([{ role: "user", content: "hi" }]);
  await ctx.close();
  cleanup();
  return {
    names: ctx.skills.map((s) => s.name),
    tooLarge: step.diagnostics.filter((d) => d.code === "TOO_LARGE").map((d) => path.relative(repo, d.path)).sort(),
    system: step.system.length,
  };
};`,
      { timeoutMs: 30_000 },
    );
    const value = bounded("600 MB sparse skill files", result, { ms: 5_000, mb: 300 });
    // AGENTS.md is guidance: cut to maxGuidanceBytes (its NUL bytes make it binary, refused).
    expect(value.names).toEqual(["small"]);
    expect(value.tooLarge).toEqual([".agents/skills/huge/SKILL.md", ".openhands/microagents/huge.md"]);
    expect(value.system).toBeLessThan(1_000_000);
  }, 40_000);

  it("a one-line 200 MB resource is read through read_skill_resource in < 5 s and < 400 MB (cap 64 KiB; reading on is refused past 64 MiB)", async () => {
    const result = await runIsolated<{ first: number; note: boolean; second: string; tail: string }>(
      `${PRELUDE}
import { openSync, writeSync, closeSync } from "node:fs";
import { AgentContext } from "skillctx";
export default async () => {
  const skillDir = path.join(base, "skills/big");
  put(path.join(skillDir, "SKILL.md"), "---\\nname: big\\ndescription: Big resource.\\n---\\nBody.\\n");
  const file = put(path.join(skillDir, "references/one-line.txt"), "");
  const fd = openSync(file, "w");
  const block = Buffer.alloc(1024 * 1024, "a");
  for (let i = 0; i < 200; i++) writeSync(fd, block);
  writeSync(fd, "\\nsecond line\\n");
  closeSync(fd);
  const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home }, guidance: false, skills: [skillDir] });
  const started = performance.now();
  const first = await ctx.callTool("read_skill_resource", { name: "big", path: "references/one-line.txt" });
  const second = await ctx.callTool("read_skill_resource", { name: "big", path: "references/one-line.txt", startLine: 2 });
  await ctx.close();
  cleanup();
  return { first: first.content.length, note: first.content.includes("Cut at 65536 bytes"), second: second.content, tail: String(Math.round(performance.now() - started)) };
};`,
      { timeoutMs: 60_000 },
    );
    const value = bounded("200 MB one-line resource", result, { ms: 5_000, mb: 400 });
    expect(value.note).toBe(true);
    expect(value.first).toBeLessThan(66_000);
    expect(value.second).toContain("is not within the first");
  }, 70_000);
});

// The figures for the closing note: the time and memory each attack took, printed once after the file.
afterAll(() => {
  if (figures.length > 0)
    console.log(`files: ${figures.map((f) => `${f.test}: ${f.wallMs} ms, ${f.maxRssMb} MB`).join("; ")}`);
});
