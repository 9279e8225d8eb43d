/**
 * Adversarial tests of user invocation (issue 13): hostile arguments (huge, control characters,
 * placeholders and commands inside them), hostile mentions, and hostile nested skill folders (symlinks
 * leaving the project, thousands of packages, absurdly deep paths). Each attack runs in a fresh
 * process (runIsolated) and states the bound it checks.
 */
import { describe, expect, it } from "vitest";
import { describeWithTool } from "../helpers/tools-present.js";
import { expectBounded, runIsolated } from "./isolated.js";

// Shared by the scripts: a temp folder, a programmatic (trusted) skill maker, a git repository maker, a closer.
const PRELUDE = `
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, existsSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext } from "skillctx";
import { ContextStateSchema } from "skillctx/schemas";
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-invoke-"));
const source = { kind: "inline", format: "inline", scope: "programmatic" };
const skill = (name, content, extra = {}) => ({ name, description: name, content, source, trigger: { type: "on-demand" }, ...extra });
const put = (relative, text) => {
  const file = path.join(dir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
};
const skillMd = (name) => "---\\nname: " + name + "\\ndescription: The " + name + " skill.\\n---\\nBody of " + name + ".\\n";
const gitRepo = () => {
  const repo = path.join(dir, "repo");
  mkdirSync(repo, { recursive: true });
  execFileSync("git", ["init", "--quiet", repo], { stdio: "ignore" });
  return repo;
};
const finish = async (ctx, value) => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return value;
};
`;

describe("adversarial: hostile arguments", () => {
  it("5 MB of arguments into a body of 2,000 $ARGUMENTS stays within the attached cap (< 10 s, < 600 MB)", async () => {
    const result = await runIsolated<{ bytes: number; cut: boolean; codes: string[]; matchLength: number }>(
      `${PRELUDE}
export default async () => {
  const body = "Use: $ARGUMENTS $0 $ARGUMENTS[1]\\n".repeat(2000);
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills: [skill("big", body)] });
  const args = "word ".repeat(1_000_000);
  const step = await ctx.buildContext([{ role: "user", content: "/big " + args }]);
  const text = step.attachments.map((a) => a.text).join("");
  const value = { bytes: Buffer.byteLength(text), cut: text.includes("is cut here"), codes: step.diagnostics.map((d) => d.code), matchLength: step.activated[0].match.length };
  return finish(ctx, value);
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 10_000, mb: 600 });
    expect(value.cut).toBe(true);
    expect(value.bytes).toBeLessThan(65_536 + 2_000);
    expect(value.codes).toContain("SKILL_BODY_CUT");
    expect(value.matchLength).toBeLessThanOrEqual(200);
  }, 40_000);

  it("control characters, placeholders and commands in arguments stay text, run nothing, and the state stays valid JSON (< 10 s)", async () => {
    const result = await runIsolated<{
      text: string;
      match: string;
      pwned: boolean;
      stateOk: boolean;
      skillDir: string;
    }>(
      `${PRELUDE}
export default async () => {
  const pwned = path.join(dir, "pwned");
  const body = "A=[$ARGUMENTS] 0=[$0] 1=[$1] dir=\${CLAUDE_SKILL_DIR} !\`echo rendered\`";
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills: [{ ...skill("x", body), dir: path.join(dir, "skill-x") }] });
  const args = "\\u0000\\u001b[31mred\\r\\n\\u2028 $ARGUMENTS \${CLAUDE_SKILL_DIR} !\`touch " + pwned + "\` $(touch " + pwned + ")";
  const step = await ctx.buildContext([{ role: "user", content: "/x " + args }]);
  const state = JSON.parse(JSON.stringify(ctx.state));
  const value = {
    text: step.attachments[0].text,
    match: step.activated[0].match,
    pwned: existsSync(pwned),
    stateOk: ContextStateSchema.safeParse(state).success,
    skillDir: path.join(dir, "skill-x"),
  };
  return finish(ctx, value);
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 10_000, mb: 400 });
    expect(value.pwned).toBe(false);
    expect(value.stateOk).toBe(true);
    // $ARGUMENTS and ${CLAUDE_SKILL_DIR} inside the arguments are not substituted again.
    expect(value.text).toContain("$ARGUMENTS ${CLAUDE_SKILL_DIR} !`touch");
    expect(value.text).toContain(`dir=${value.skillDir} rendered`);
    expect(value.text).toContain("1=[$ARGUMENTS]");
    expect(value.text.split(value.skillDir)).toHaveLength(2);
    // The reported match is one line without control characters.
    expect(value.match).not.toMatch(/[\u0000-\u001f\u2028]/);
    expect(value.match.startsWith("/x [31mred $ARGUMENTS")).toBe(true);
  }, 40_000);

  it("a 1 MB message of @ mentions against 1,000 @ rules is matched in linear time (< 10 s)", async () => {
    const result = await runIsolated<{ activated: number; ms: number }>(
      `${PRELUDE}
export default async () => {
  const rules = Array.from({ length: 1000 }, (_, i) => skill("rule-" + i, "Rule " + i + ".", { trigger: { type: "command", prefix: "@" } }));
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills: rules });
  const text = "@".repeat(300_000) + " @rule-1".repeat(10) + " @@rule-2 x@rule-3 " + "@rule-".repeat(80_000);
  const started = performance.now();
  const step = await ctx.buildContext([{ role: "user", content: text }]);
  const value = { activated: step.activated.length, ms: performance.now() - started };
  return finish(ctx, value);
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 10_000, mb: 500 });
    // @rule-1 once (one attachment per rule per message), @rule-2 after another "@"; "x@rule-3" is inside a word.
    expect(value.activated).toBe(2);
  }, 40_000);
});

describeWithTool("git")("adversarial: hostile nested skill folders", () => {
  it("nested skill folders that are symlinks leaving the project are not read (PATH_OUTSIDE_ROOT), files inside stay unread (< 10 s)", async () => {
    const result = await runIsolated<{ skills: string[]; codes: string[]; attachments: number }>(
      `${PRELUDE}
export default async () => {
  const repo = gitRepo();
  put("outside/skills/stolen/SKILL.md", skillMd("stolen"));
  put("outside/one/SKILL.md", skillMd("stolen-one"));
  put("repo/packages/a/src/x.ts", "x");
  mkdirSync(path.join(repo, "packages/a/.claude"), { recursive: true });
  symlinkSync(path.join(dir, "outside/skills"), path.join(repo, "packages/a/.claude/skills"));
  put("repo/packages/b/src/y.ts", "y");
  mkdirSync(path.join(repo, "packages/b/.agents/skills"), { recursive: true });
  symlinkSync(path.join(dir, "outside/one"), path.join(repo, "packages/b/.agents/skills/one"));
  const ctx = await AgentContext.create({ cwd: repo, guidance: false });
  const step = await ctx.buildContext([
    { role: "user", content: "go" },
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read", args: { paths: ["packages/a/src/x.ts", "packages/b/src/y.ts"] } }] },
    { role: "tool", content: "ok", toolCallId: "c1" },
  ]);
  const value = { skills: ctx.skills.map((s) => s.name), codes: step.diagnostics.map((d) => d.code), attachments: step.attachments.length };
  return finish(ctx, value);
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 10_000, mb: 400 });
    expect(value.skills).toEqual([]);
    expect(value.attachments).toBe(0);
    expect(value.codes.filter((c) => c === "PATH_OUTSIDE_ROOT")).toHaveLength(2);
  }, 40_000);

  it("2,000 packages with skill folders, touched 256 at a time, reveal at most maxFolders with one warning (steps < 15 s, < 800 MB)", async () => {
    const result = await runIsolated<{
      revealed: number;
      skills: number;
      limitWarnings: number;
      notes: number;
      systemSame: boolean;
      stepsMs: number;
    }>(
      `${PRELUDE}
export default async () => {
  const repo = gitRepo();
  for (let i = 0; i < 2000; i++) put("repo/packages/p" + i + "/.claude/skills/s" + i + "/SKILL.md", skillMd("s" + i));
  const ctx = await AgentContext.create({ cwd: repo, guidance: false, conversation: { nestedSkills: { maxFolders: 50 } } });
  const history = [{ role: "user", content: "go" }];
  const started = performance.now();
  const first = await ctx.buildContext(history);
  let limitWarnings = 0;
  for (let batch = 0; batch < 8; batch++) {
    const paths = Array.from({ length: 256 }, (_, j) => "packages/p" + (batch * 256 + j) + "/src/deep/file.ts");
    history.push({ role: "assistant", content: "", toolCalls: [{ id: "c" + batch, name: "edit", args: { paths } }] });
    history.push({ role: "tool", content: "ok", toolCallId: "c" + batch });
    const step = await ctx.buildContext(history);
    limitWarnings += step.diagnostics.filter((d) => d.code === "NESTED_SKILLS_LIMIT").length;
    if (step.system !== first.system) return { systemSame: false };
  }
  const value = {
    revealed: (ctx.state.nested ?? []).length,
    skills: ctx.skills.length,
    limitWarnings,
    notes: ctx.state.attachments.filter((a) => a.trigger === "catalog").length,
    systemSame: true,
    stepsMs: performance.now() - started,
  };
  return finish(ctx, value);
};`,
      { timeoutMs: 150_000 },
    );
    // Writing 2,000 folders dominates the run; the steps themselves are bounded separately.
    const { stepsMs, ...value } = expectBounded(result, { ms: 120_000, mb: 800 });
    expect(stepsMs).toBeLessThan(15_000);
    expect(value).toEqual({ revealed: 50, skills: 50, limitWarnings: 1, notes: 50, systemSame: true });
  }, 160_000);

  it("a touched path 3,000 folders deep looks at no more than MAX_NESTED_DEPTH folders (< 10 s)", async () => {
    const result = await runIsolated<{ attachments: number; failed: boolean }>(
      `${PRELUDE}
export default async () => {
  const repo = gitRepo();
  const deep = Array.from({ length: 3000 }, (_, i) => "d" + i).join("/") + "/file.ts";
  const ctx = await AgentContext.create({ cwd: repo, guidance: false });
  const steps = [];
  for (let i = 0; i < 20; i++) {
    steps.push({ role: "assistant", content: "", toolCalls: [{ id: "c" + i, name: "read", args: { path: deep + i } }] }, { role: "tool", content: "ok", toolCallId: "c" + i });
  }
  const step = await ctx.buildContext([{ role: "user", content: "go" }, ...steps]);
  const value = { attachments: step.attachments.length, failed: false };
  return finish(ctx, value);
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 10_000, mb: 400 });
    expect(value.attachments).toBe(0);
  }, 40_000);
});
