/**
 * Adversarial tests of directory walking (issue 10, H1): symlinks to `/`, 1,000 nested folders,
 * symlink loops and fan-out through links to `.`, for every walker (skill discovery, nested guidance,
 * the file list of load_skill, `skillctx validate`), each through core's one walker. Every attack runs
 * in a fresh process (runIsolated) and each test names the time and memory bound it checks.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";
import type { IsolatedResult } from "./isolated.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const VALIDATE_COMMAND = pathToFileURL(path.join(ROOT, "packages/cli/src/validate.ts")).href;

const PRELUDE = `
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-walk-")));
const home = path.join(base, "home");
const repo = path.join(base, "repo");
mkdirSync(home, { recursive: true });
mkdirSync(repo, { recursive: true });
function put(file, text) { mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, text); return file; }
function link(target, file) { mkdirSync(path.dirname(file), { recursive: true }); symlinkSync(target, file); }
const skill = (name) => "---\\nname: " + name + "\\ndescription: The " + name + " skill.\\n---\\nBody of " + name + ".\\n";
// 1,000 nested folders below dir, with a file at the bottom.
function nest(dir, levels, bottom) {
  const parts = Array.from({ length: levels }, () => "d");
  const deepest = path.join(dir, ...parts);
  mkdirSync(deepest, { recursive: true });
  if (bottom) put(path.join(deepest, bottom[0]), bottom[1]);
  return deepest;
}
// Every folder of a small tree holds links back to the top: a walk that follows them fans out.
function fanOut(dir, width) {
  for (let i = 0; i < width; i++) {
    mkdirSync(path.join(dir, "f" + i), { recursive: true });
    link(dir, path.join(dir, "f" + i, "up"));
    link(".", path.join(dir, "f" + i, "self"));
    link("../..", path.join(dir, "f" + i, "parent"));
  }
  link(".", path.join(dir, "dot"));
}
const cleanup = () => rmSync(base, { recursive: true, force: true });
`;

const figures: Array<{ test: string; wallMs: number; maxRssMb: number }> = [];
function bounded<T>(name: string, result: IsolatedResult<T>, bounds: { ms: number; mb: number }): T {
  figures.push({ test: name, wallMs: Math.round(result.wallMs), maxRssMb: Math.round(result.maxRssMb) });
  return expectBounded(result, bounds, name);
}

describe("adversarial: a symlink to /", () => {
  it("in every project skill folder, discovery does not follow it (< 3 s, < 300 MB)", async () => {
    const result = await runIsolated<{ names: string[]; codes: string[] }>(
      `${PRELUDE}
import { discoverSkills, createSkillCache } from "@skillctx/core";
export default async () => {
  for (const folder of [".agents/skills", ".claude/skills", ".openhands/skills", ".openhands/microagents"]) link("/", path.join(repo, folder, "root"));
  put(path.join(repo, ".agents/skills/ok/SKILL.md"), skill("ok"));
  const found = await discoverSkills({ cwd: repo, homeDir: home, cache: createSkillCache() });
  cleanup();
  return { names: found.skills.map((s) => s.name), codes: found.diagnostics.map((d) => d.code) };
};`,
      { timeoutMs: 30_000 },
    );
    const value = bounded("symlink to /, contained discovery", result, { ms: 3_000, mb: 300 });
    expect(value.names).toEqual(["ok"]);
    expect(value.codes).toEqual(["PATH_OUTSIDE_ROOT", "PATH_OUTSIDE_ROOT", "PATH_OUTSIDE_ROOT", "PATH_OUTSIDE_ROOT"]);
  }, 40_000);

  it("followed on purpose (trust.user, or a programmatic source), the walk of / stops at its caps (< 20 s, < 500 MB)", async () => {
    const result = await runIsolated<{ limited: boolean; tooDeep: boolean }>(
      `${PRELUDE}
import { loadSkills, createSkillCache } from "@skillctx/core";
export default async () => {
  link("/", path.join(repo, "skills/root"));
  const found = await loadSkills([path.join(repo, "skills")], { cache: createSkillCache() });
  cleanup();
  const codes = found.diagnostics.map((d) => d.code);
  return { limited: codes.includes("WALK_LIMIT"), tooDeep: codes.includes("WALK_TOO_DEEP") };
};`,
      { timeoutMs: 60_000 },
    );
    const value = bounded("symlink to /, followed (programmatic source)", result, { ms: 20_000, mb: 500 });
    expect(value.limited || value.tooDeep).toBe(true);
  }, 70_000);

  it("in a repository without git, the nested-guidance walk does not follow it (< 3 s, < 300 MB)", async () => {
    const result = await runIsolated<{ names: string[] }>(
      `${PRELUDE}
import { loadGuidance } from "@skillctx/compat";
export default async () => {
  put(path.join(repo, "AGENTS.md"), "root\\n");
  put(path.join(repo, "server/AGENTS.md"), "server\\n");
  link("/", path.join(repo, "server/root"));
  link("/", path.join(repo, "root"));
  const found = await loadGuidance(repo, { homeDir: home });
  cleanup();
  return { names: found.skills.map((s) => s.name) };
};`,
      { timeoutMs: 30_000 },
    );
    const value = bounded("symlink to /, nested guidance walk", result, { ms: 3_000, mb: 300 });
    expect(value.names).toEqual(["agents", "agents:server"]);
  }, 40_000);
});

describe("adversarial: 1,000 nested folders", () => {
  it("discovery, nested guidance, load_skill's file list and validate each stop at their depth (< 5 s, < 300 MB)", async () => {
    // The tree is made and removed out here: deleting 3,000 nested folders is slow, and not the attack.
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-nested-")));
    const nest = (dir: string, file: string, text: string) => {
      const deepest = path.join(dir, ...Array.from({ length: 1000 }, () => "d"));
      mkdirSync(deepest, { recursive: true });
      writeFileSync(path.join(deepest, file), text);
    };
    const repo = path.join(base, "repo");
    nest(path.join(repo, ".agents/skills"), "SKILL.md", "---\nname: deepest\ndescription: d\n---\nx\n");
    mkdirSync(path.join(repo, ".agents/skills/shallow"), { recursive: true });
    writeFileSync(path.join(repo, ".agents/skills/shallow/SKILL.md"), "---\nname: shallow\ndescription: d\n---\nx\n");
    nest(repo, "AGENTS.md", "deep guidance\n");
    const skillDir = path.join(base, "tools/deep-tool");
    nest(path.join(skillDir, "references"), "bottom.md", "bottom");
    writeFileSync(path.join(skillDir, "SKILL.md"), "---\nname: deep-tool\ndescription: d\n---\nx\n");
    try {
      const result = await runIsolated<{
        discovered: string[];
        discoveryCodes: string[];
        guidance: string[];
        listed: number;
        validated: number;
      }>(
        `
import path from "node:path";
import { discoverSkills, createSkillCache } from "@skillctx/core";
import { loadGuidance } from "@skillctx/compat";
import { AgentContext } from "skillctx";
import { validateCommand } from ${JSON.stringify(VALIDATE_COMMAND)};
export default async ({ repo, skillDir, home }) => {
  const found = await discoverSkills({ cwd: repo, homeDir: home, cache: createSkillCache() });
  const guidance = await loadGuidance(repo, { homeDir: home });
  const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home }, guidance: false, skills: [skillDir] });
  const loaded = await ctx.callTool("load_skill", { name: "deep-tool" });
  await ctx.close();
  let out = "";
  const io = { stdout: { write: (t) => { out += t; } }, stderr: { write: (t) => { out += t; } } };
  await validateCommand.run([path.join(repo, ".agents/skills"), "--json"], io);
  return {
    discovered: found.skills.map((s) => s.name),
    discoveryCodes: [...new Set(found.diagnostics.map((d) => d.code))],
    guidance: guidance.skills.map((s) => s.name),
    listed: loaded.content.split("\\n").filter((l) => l.startsWith("- ")).length,
    validated: JSON.parse(out).data.results.length,
  };
};`,
        { timeoutMs: 30_000, input: { repo, skillDir, home: path.join(base, "home") } },
      );
      const value = bounded("1,000 nested folders, four walkers", result, { ms: 5_000, mb: 300 });
      expect(value.discovered).toEqual(["shallow"]);
      expect(value.discoveryCodes).toEqual(["WALK_TOO_DEEP"]);
      expect(value.guidance).toEqual([]);
      // The bottom file lies below the walk's depth (16): nothing is listed, and nothing hangs.
      expect(value.listed).toBe(0);
      expect(value.validated).toBe(1);
    } finally {
      execFileSync("rm", ["-rf", base]);
    }
  }, 70_000);
});

describe("adversarial: symlink loops and fan-out", () => {
  it("links back to . and .. in every folder cost each walker one visit per real folder (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ discovered: string[]; guidance: string[]; listed: number; validated: string[] }>(
      `${PRELUDE}
import { discoverSkills, createSkillCache } from "@skillctx/core";
import { loadGuidance } from "@skillctx/compat";
import { AgentContext } from "skillctx";
import { validateCommand } from ${JSON.stringify(VALIDATE_COMMAND)};
export default async () => {
  const skills = path.join(repo, ".agents/skills");
  for (const name of ["one", "two", "three"]) put(path.join(skills, "group", name, "SKILL.md"), skill(name));
  fanOut(skills, 10);
  fanOut(path.join(skills, "group"), 10);
  put(path.join(repo, "pkg/AGENTS.md"), "pkg\\n");
  fanOut(repo, 10);
  link("loop-b", path.join(repo, "loop-a"));
  link("loop-a", path.join(repo, "loop-b"));
  const skillDir = path.join(base, "tools/looped");
  put(path.join(skillDir, "SKILL.md"), skill("looped"));
  put(path.join(skillDir, "references/a.md"), "a");
  fanOut(path.join(skillDir, "references"), 10);
  const found = await discoverSkills({ cwd: repo, homeDir: home, cache: createSkillCache() });
  const guidance = await loadGuidance(repo, { homeDir: home });
  const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home }, guidance: false, skills: [skillDir] });
  const loaded = await ctx.callTool("load_skill", { name: "looped" });
  await ctx.close();
  let out = "";
  const io = { stdout: { write: (t) => { out += t; } }, stderr: { write: (t) => { out += t; } } };
  await validateCommand.run([skills, "--json"], io);
  cleanup();
  return {
    discovered: found.skills.map((s) => s.name),
    guidance: guidance.skills.map((s) => s.name),
    listed: loaded.content.split("\\n").filter((l) => l.startsWith("- ")).length,
    validated: JSON.parse(out).data.results.map((r) => path.basename(r.path)),
  };
};`,
      { timeoutMs: 60_000 },
    );
    const value = bounded("loops and fan-out, four walkers", result, { ms: 5_000, mb: 300 });
    expect(value.discovered).toEqual(["one", "three", "two"]);
    expect(value.guidance).toEqual(["agents:pkg"]);
    expect(value.listed).toBe(1);
    expect(value.validated).toEqual(["one", "three", "two"]);
  }, 70_000);

  it("skillctx validate on a tree whose folders link to . validates each skill once (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ code: number; paths: string[] }>(
      `${PRELUDE}
import { validateCommand } from ${JSON.stringify(VALIDATE_COMMAND)};
export default async () => {
  const top = path.join(base, "library");
  for (const name of ["alpha", "beta"]) put(path.join(top, "set", name, "SKILL.md"), skill(name));
  for (const dir of [top, path.join(top, "set"), path.join(top, "set/x"), path.join(top, "set/x/y")]) {
    for (let i = 0; i < 8; i++) link(".", path.join(dir, "dot" + i));
  }
  let out = "";
  const io = { stdout: { write: (t) => { out += t; } }, stderr: { write: (t) => { out += t; } } };
  const code = await validateCommand.run([top, "--json"], io);
  cleanup();
  return { code, paths: JSON.parse(out).data.results.map((r) => path.relative(top, r.path)) };
};`,
      { timeoutMs: 30_000 },
    );
    const value = bounded("validate with links to .", result, { ms: 5_000, mb: 300 });
    expect(value.code).toBe(0);
    expect(value.paths).toEqual(["set/alpha", "set/beta"]);
  }, 40_000);
});

// The figures for the closing note: the time and memory each attack took, printed once after the file.
afterAll(() => {
  if (figures.length > 0)
    console.log(`walk: ${figures.map((f) => `${f.test}: ${f.wallMs} ms, ${f.maxRssMb} MB`).join("; ")}`);
});
