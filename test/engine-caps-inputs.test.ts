// Runs no python3 and no uv: "python3" appears only as text (a compatibility field), so no tool gate is needed.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SkillInit } from "@skillctx/core";
import { AgentContext } from "skillctx";
import type { AgentContextOptions, ContextStep, ToolsetName } from "skillctx";
import { useEngineFixture, user } from "./helpers/engine-fixture.js";

const { repo, context } = useEngineFixture();

const inline = { kind: "inline", format: "inline", scope: "programmatic" } as const;
const attached = (step: ContextStep, index: number) =>
  (step.messages[index]!.content as Array<{ text?: string }>)
    .slice(1)
    .map((p) => p.text ?? "")
    .join("\n");

describe("task inputs", () => {
  const task = (content: string, inputs: SkillInit["inputs"] = []): SkillInit => ({
    name: "report",
    description: "File a report.",
    content,
    source: inline,
    trigger: { type: "task", keywords: ["/report"], inputs: inputs ?? [] },
  });

  it("a value with !`cmd` in it stays text in a trusted skill: it is put in after rendering and never runs", async () => {
    const dir = (await repo()).dir;
    const ctx = await context({
      cwd: dir,
      skills: [
        task("Rendered: !`echo ok`\nSubject: ${subject}\n", [
          { name: "subject", description: "What about", required: true },
        ]),
      ],
      conversation: {
        collectInputs: () => ({ subject: "!`touch PWNED`" }),
      },
    });
    const text = attached(await ctx.buildContext([user("/report")]), 0);
    expect(text).toContain("Rendered: ok");
    expect(text).toContain("Subject: !`touch PWNED`");
    expect(existsSync(path.join(dir, "PWNED"))).toBe(false);
  });

  it("a value's own ${placeholder} is not replaced again", async () => {
    const ctx = await context({
      cwd: (await repo()).dir,
      skills: [
        task("A=${a} B=${b}\n", [
          { name: "a", description: "" },
          { name: "b", description: "" },
        ]),
      ],
      conversation: {
        collectInputs: () => ({ a: "${b}", b: "bee" }),
      },
    });
    expect(attached(await ctx.buildContext([user("/report")]), 0)).toContain("A=${b} B=bee");
  });

  it("placeholders that are not declared inputs are asked for too (as in OpenHands), but not shell variables in commands", async () => {
    const asked: string[][] = [];
    const ctx = await context({
      cwd: (await repo()).dir,
      skills: [
        task('Branch ${branch} of ${repo_name}; home: !`echo "${HOME}" > /dev/null; echo done`\n', [
          { name: "branch", description: "The branch", required: true },
        ]),
      ],
      conversation: {
        collectInputs: ({ inputs }) => {
          asked.push(inputs.map((i) => i.name));
          return { branch: "main" };
        },
      },
    });
    const text = attached(await ctx.buildContext([user("/report")]), 0);
    expect(asked).toEqual([["branch", "repo_name"]]);
    expect(text).toContain("Branch main of ${repo_name}");
    expect(text).toContain("Ask the user for these inputs");
    expect(text).toContain("- repo_name");
    expect(text).not.toContain("- HOME");
    expect(text).not.toContain("- branch");
  });

  it("a task skill with no declared inputs but placeholders still asks for them", async () => {
    const ctx = await context({ cwd: (await repo()).dir, skills: [task("Deploy ${service} now.\n")] });
    const text = attached(await ctx.buildContext([user("/report")]), 0);
    expect(text).toContain("Ask the user for these inputs");
    expect(text).toContain("- service");
  });
});

describe("caps on text that reaches the model", () => {
  it("cuts an attached skill body at conversation.limits.maxAttachedSkillBytes with a note and a warning", async () => {
    const body = `${"line of skill text\n".repeat(2_000)}TAIL-MARKER\n`;
    const ctx = await context({
      cwd: (await repo()).dir,
      skills: [
        {
          name: "big",
          description: "Big.",
          content: body,
          source: inline,
          trigger: { type: "keyword", keywords: ["big"] },
        },
      ],
      conversation: {
        limits: { maxAttachedSkillBytes: 4_096 },
      },
    });
    const step = await ctx.buildContext([user("big one")]);
    const text = attached(step, 0);
    expect(text).not.toContain("TAIL-MARKER");
    expect(text).toContain('[skillctx: the skill "big" is cut here');
    expect(Buffer.byteLength(text)).toBeLessThan(4_096 + 1_024);
    expect(step.diagnostics.map((d) => d.code)).toContain("SKILL_BODY_CUT");
  });

  it("cuts the body load_skill returns at conversation.limits.maxLoadedSkillBytes, and a second load gives the same bytes", async () => {
    const body = `${"é".repeat(10_000)}\nTAIL-MARKER\n`;
    const ctx = await context({
      cwd: (await repo()).dir,
      skills: [{ name: "big", description: "Big.", content: body, source: inline, trigger: { type: "on-demand" } }],
      conversation: {
        limits: { maxLoadedSkillBytes: 2_000 },
      },
    });
    const first = await ctx.callTool("load_skill", { name: "big" });
    expect(first.content).not.toContain("TAIL-MARKER");
    expect(first.content).toContain("is cut here");
    expect(first.content).not.toContain("\uFFFD");
    expect(Buffer.byteLength(ctx.state.rendered["load:big"]!)).toBeLessThanOrEqual(2_000);
    expect((await ctx.callTool("load_skill", { name: "big" })).content).toBe(first.content);
    expect((await ctx.buildContext([user("x")])).diagnostics.map((d) => d.code)).toContain("SKILL_BODY_CUT");
  });

  it("caps the repository-guidance block as a whole: later files are cut or left out, with a note", async () => {
    const always = (name: string, size: number): SkillInit => ({
      name,
      description: `${name} guidance`,
      content: `${name}-START\n${"g".repeat(size)}\n${name}-END\n`,
      source: inline,
      trigger: { type: "always" },
    });
    const ctx = await context({
      cwd: (await repo()).dir,
      skills: [always("aaa", 3_000), always("bbb", 3_000), always("ccc", 3_000), always("ddd", 3_000)],
      conversation: {
        limits: { maxGuidanceBlockBytes: 5_000 },
      },
    });
    const step = await ctx.buildContext([]);
    expect(step.system).toContain("aaa-END");
    expect(step.system).toContain("bbb-START");
    expect(step.system).not.toContain("bbb-END");
    expect(step.system).not.toContain("ccc-START");
    expect(step.system).toContain("the repository guidance is capped at 5000 bytes");
    expect(step.system).toContain("2 later guidance files are left out");
    expect(Buffer.byteLength(step.system)).toBeLessThan(5_000 + 1_024);
    expect(step.diagnostics.filter((d) => d.code === "GUIDANCE_BLOCK_CUT")).toHaveLength(1);
  });

  it("leaves a guidance block under the cap as it is", async () => {
    const ctx = await context({
      cwd: (await repo()).dir,
      skills: [
        { name: "small", description: "s", content: "Be brief.\n", source: inline, trigger: { type: "always" } },
      ],
    });
    const step = await ctx.buildContext([]);
    expect(step.system).toContain("Be brief.");
    expect(step.system).not.toContain("capped");
    expect(step.diagnostics.filter((d) => d.code === "GUIDANCE_BLOCK_CUT")).toEqual([]);
  });

  it("refuses a limit that is not a positive integer, naming it by its path", async () => {
    const dir = (await repo()).dir;
    await expect(
      AgentContext.create({ cwd: dir, conversation: { limits: { maxLoadedSkillBytes: -1 } } }),
    ).rejects.toMatchObject({
      code: "INVALID_OPTIONS",
      message: "conversation.limits.maxLoadedSkillBytes must be a positive integer (bytes); got -1",
    });
  });
});

describe("the shape of the options", () => {
  it("refuses a top-level name that is not an option, such as one from before the options were grouped", async () => {
    const dir = (await repo()).dir;
    const refused = AgentContext.create({ cwd: dir, userSkills: true } as AgentContextOptions);
    await expect(refused).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
    await expect(refused).rejects.toThrow(
      /^userSkills is not an option of AgentContext\.create; its options are cwd, skills, /,
    );
  });

  it("refuses a group that is not an object: the host tools as a bare list, as before", async () => {
    const dir = (await repo()).dir;
    const tools = [{ name: "Read", execute: () => "text" }];
    await expect(
      AgentContext.create({ cwd: dir, tools: tools as unknown as AgentContextOptions["tools"] }),
    ).rejects.toMatchObject({
      code: "INVALID_OPTIONS",
      message: expect.stringMatching(/^tools must be an object; got \[/),
    });
    await expect(
      AgentContext.create({ cwd: dir, conversation: null as unknown as AgentContextOptions["conversation"] }),
    ).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: "conversation must be an object; got null" });
  });

  it("takes each group's options where they are: sources.userSkills reads the user's skills", async () => {
    const home = await repo({ ".agents/skills/mine/SKILL.md": "---\nname: mine\ndescription: Mine.\n---\nBody.\n" });
    const dir = (await repo()).dir;
    const names = async (userSkills: boolean) => {
      const ctx = await AgentContext.create({ cwd: dir, guidance: false, sources: { homeDir: home.dir, userSkills } });
      try {
        return ctx.skills.map((skill) => skill.name);
      } finally {
        await ctx.close();
      }
    };
    expect(await names(true)).toEqual(["mine"]);
    expect(await names(false)).toEqual([]);
  });
});

describe("skill names and load results", () => {
  const skill: SkillInit = {
    name: "pdf",
    description: "Fill PDF forms.",
    content: "Use the form filler.",
    source: inline,
    trigger: { type: "on-demand" },
    license: "Apache-2.0",
    compatibility: "Needs python3 and network access",
  };

  it("load_skill shows license and compatibility when the skill has them", async () => {
    const ctx = await context({ cwd: (await repo()).dir, skills: [skill] });
    const result = await ctx.callTool("load_skill", { name: "pdf" });
    expect(result.content).toContain("\nLicense: Apache-2.0\n");
    expect(result.content).toContain("\nCompatibility: Needs python3 and network access");
    const plain = await context({
      cwd: (await repo()).dir,
      skills: [{ ...skill, license: undefined, compatibility: undefined }],
    });
    expect((await plain.callTool("load_skill", { name: "pdf" })).content).not.toContain("License:");
  });

  it("the langflow toolset's JSON carries them as keys", async () => {
    const ctx = await context({ cwd: (await repo()).dir, skills: [skill], tools: { toolset: "langflow" } });
    const json = JSON.parse((await ctx.callTool("load_skill", { skill_name: "pdf" })).content) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({
      skill_name: "pdf",
      license: "Apache-2.0",
      compatibility: "Needs python3 and network access",
    });
  });

  const loads: Array<[ToolsetName, string, Record<string, unknown>]> = [
    ["skillctx", "load_skill", { name: "  pdf\n" }],
    ["claude", "Skill", { skill: " pdf " }],
    ["openhands", "invoke_skill", { name: "\tpdf" }],
    ["strands", "skills", { action: "activate", skill_name: "pdf  " }],
    ["langflow", "load_skill", { skill_name: " pdf" }],
  ];

  it.each(loads)("%s: %s trims the skill name before the lookup", async (toolset, tool, args) => {
    const ctx = await context({ cwd: (await repo()).dir, skills: [skill], tools: { toolset } });
    const result = await ctx.callTool(tool, args);
    expect(result.isError).toBeUndefined();
    expect(ctx.activeSkill).toBe("pdf");
  });

  it("unload_skill and strands' deactivate trim the name too", async () => {
    const ctx = await context({ cwd: (await repo()).dir, skills: [skill] });
    await ctx.callTool("load_skill", { name: "pdf" });
    expect((await ctx.callTool("unload_skill", { name: " pdf " })).isError).toBeUndefined();
    expect(ctx.activeSkill).toBeUndefined();
    const strands = await context({ cwd: (await repo()).dir, skills: [skill], tools: { toolset: "strands" } });
    await strands.callTool("skills", { action: "activate", skill_name: "pdf" });
    expect((await strands.callTool("skills", { action: "deactivate", skill_name: " pdf" })).isError).toBeUndefined();
    expect(strands.activeSkill).toBeUndefined();
  });
});

describe("glob diagnostics", () => {
  it("a path rule whose glob the matcher refuses is reported once, in the next step", async () => {
    const ctx = await context({
      cwd: (await repo()).dir,
      skills: [
        {
          name: "braces",
          description: "b",
          content: "x",
          source: inline,
          trigger: { type: "path", globs: [`${"{a,b}".repeat(12)}/**`] },
        },
      ],
    });
    const first = await ctx.buildContext([user("hi")]);
    expect(first.diagnostics.filter((d) => d.code === "GLOB_TOO_COMPLEX")).toHaveLength(1);
    const second = await ctx.buildContext([user("hi"), user("again")]);
    expect(second.diagnostics.filter((d) => d.code === "GLOB_TOO_COMPLEX")).toEqual([]);
  });
});
