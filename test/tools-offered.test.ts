// Issue 37: a tool is offered only when it can work. run_skill_script is listed when a skill has a
// scripts/ folder and a trusted scope; a call made anyway (a model naming it from memory) still gets
// the reason it cannot run.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { AgentContext } from "skillctx";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";

const tempDir = useTempDirs("tools-offered");
const open: AgentContext[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((ctx) => ctx.close()));
});

const skill = (name: string) => `---\nname: ${name}\ndescription: ${name} things\n---\nDo ${name} things.\n`;

async function repo(files: Record<string, string>): Promise<string> {
  const dir = await tempDir(files);
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

async function toolNames(cwd: string, trustProject: boolean): Promise<{ ctx: AgentContext; names: string[] }> {
  const ctx = await AgentContext.create({ cwd, trust: { project: trustProject }, guidance: false });
  open.push(ctx);
  const step = await ctx.buildContext([]);
  return { ctx, names: step.tools.map((t) => t.name) };
}

describe("run_skill_script is offered only when a script can run", () => {
  it("is left out when no skill has a scripts/ folder, trusted or not", async () => {
    const cwd = await repo({ ".agents/skills/notes/SKILL.md": skill("notes") });
    expect((await toolNames(cwd, true)).names).toEqual(["load_skill", "read_skill_resource", "unload_skill"]);
  });

  it("is left out for an untrusted project's scripts, and a call says why; trusting the project offers it", async () => {
    const cwd = await repo({
      ".agents/skills/greet/SKILL.md": skill("greet"),
      ".agents/skills/greet/scripts/hi.js": "console.log('hi')\n",
    });
    const untrusted = await toolNames(cwd, false);
    expect(untrusted.names).not.toContain("run_skill_script");
    const called = await untrusted.ctx.callTool("run_skill_script", { name: "greet", script: "scripts/hi.js" });
    expect(called.isError).toBe(true);
    expect(called.content).toContain("not trusted to run scripts");
    const trusted = await toolNames(cwd, true);
    expect(trusted.names).toEqual(["load_skill", "read_skill_resource", "run_skill_script", "unload_skill"]);
    expect((await trusted.ctx.callTool("run_skill_script", { name: "greet", script: "scripts/hi.js" })).content).toBe(
      "hi",
    );
  });

  it("looks for scripts/ folders when the tools are first listed, not at create (docs/decisions.md, issue 36)", async () => {
    const cwd = await repo({ ".agents/skills/greet/SKILL.md": skill("greet") });
    const ctx = await AgentContext.create({ cwd, trust: { project: true }, guidance: false });
    open.push(ctx);
    expect(ctx.skills.map((s) => s.name)).toEqual(["greet"]);
    // Made after create, before the first step: the first step's tools are those of the files as they are then.
    mkdirSync(path.join(cwd, ".agents/skills/greet/scripts"));
    writeFileSync(path.join(cwd, ".agents/skills/greet/scripts/hi.js"), "console.log('hi')\n");
    const step = await ctx.buildContext([]);
    expect(step.tools.map((t) => t.name)).toEqual([
      "load_skill",
      "read_skill_resource",
      "run_skill_script",
      "unload_skill",
    ]);
  });
});
