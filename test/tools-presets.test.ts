import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolsets } from "skillctx";
import type { AgentContext, AgentContextOptions, ToolDefinition, ToolsetName } from "skillctx";
import { useToolSkills } from "./helpers/tools-fixture.js";
import { withDefaults } from "./helpers/options.js";

const suite = useToolSkills();

function context(toolset: ToolsetName | undefined, options: Partial<AgentContextOptions> = {}): Promise<AgentContext> {
  return suite.context(withDefaults(toolset === undefined ? {} : { tools: { toolset } }, options));
}

/** name → [required arguments, all arguments] of each tool. */
function shapes(tools: ToolDefinition[]): Record<string, [string[], string[]]> {
  return Object.fromEntries(
    tools.map((tool) => [
      tool.name,
      [
        (tool.inputSchema.required as string[] | undefined) ?? [],
        Object.keys((tool.inputSchema.properties as object) ?? {}),
      ],
    ]),
  );
}

const forms = () => readFile(path.join(suite.copy.skills, "pdf-forms/references/forms.md"), "utf8");

describe("toolsets", () => {
  it("offers every preset by name", () => {
    expect(Object.keys(toolsets)).toEqual(["skillctx", "strands", "openhands", "langflow", "claude"]);
  });

  it.each<[ToolsetName, Record<string, [string[], string[]]>]>([
    [
      "skillctx",
      {
        load_skill: [["name"], ["name"]],
        read_skill_resource: [
          ["name", "path"],
          ["name", "path", "startLine", "endLine"],
        ],
        run_skill_script: [
          ["name", "script"],
          ["name", "script", "args"],
        ],
        unload_skill: [["name"], ["name"]],
      },
    ],
    [
      "strands",
      {
        skills: [
          ["action", "skill_name"],
          ["action", "skill_name"],
        ],
        read_skill_resource: [
          ["name", "path"],
          ["name", "path", "startLine", "endLine"],
        ],
        run_skill_script: [
          ["name", "script"],
          ["name", "script", "args"],
        ],
      },
    ],
    [
      "openhands",
      {
        invoke_skill: [["name"], ["name"]],
        read_skill_resource: [
          ["name", "path"],
          ["name", "path", "startLine", "endLine"],
        ],
        run_skill_script: [
          ["name", "script"],
          ["name", "script", "args"],
        ],
        unload_skill: [["name"], ["name"]],
      },
    ],
    [
      "langflow",
      {
        load_skill: [["skill_name"], ["skill_name"]],
        read_skill_file: [
          ["skill_name", "filename"],
          ["skill_name", "filename"],
        ],
        run_skill_script: [
          ["name", "script"],
          ["name", "script", "args"],
        ],
        unload_skill: [["name"], ["name"]],
      },
    ],
    [
      "claude",
      {
        Skill: [["skill"], ["skill"]],
        read_skill_resource: [
          ["name", "path"],
          ["name", "path", "startLine", "endLine"],
        ],
        run_skill_script: [
          ["name", "script"],
          ["name", "script", "args"],
        ],
        unload_skill: [["name"], ["name"]],
      },
    ],
  ])("%s: tool names and argument shapes", async (toolset, expected) => {
    const ctx = await context(toolset);
    const step = await ctx.buildContext([]);
    expect(shapes(step.tools)).toEqual(expected);
    expect(Object.keys(shapes(step.tools))).toEqual(Object.keys(expected));
  });

  it.each<[ToolsetName | undefined, string]>([
    [undefined, "load the skill with the load_skill tool before acting."],
    ["strands", 'load the skill with the skills tool (action "activate") before acting.'],
    ["openhands", "load the skill with the invoke_skill tool before acting."],
    ["langflow", "load the skill with the load_skill tool before acting."],
    ["claude", "load the skill with the Skill tool before acting."],
  ])("the catalog intro names the load tool of %s", async (toolset, wording) => {
    const ctx = await context(toolset);
    expect((await ctx.buildContext([])).system).toContain(`When a task matches a skill's description, ${wording}`);
  });

  it("keeps a string catalog intro as given", async () => {
    const ctx = await context("strands", { conversation: { templates: { catalogIntro: "Skills:" } } });
    expect((await ctx.buildContext([])).system).toMatch(/^Skills:\n\n<available_skills>/);
  });
});

describe("strands: skills { action, skill_name }", () => {
  it("activates and deactivates, with Strands' wording", async () => {
    const ctx = await context("strands");
    const activated = await ctx.callTool("skills", { action: "activate", skill_name: "pdf-forms" });
    expect(activated.content.startsWith('<skill-loaded name="pdf-forms">')).toBe(true);
    expect(ctx.activeSkill).toBe("pdf-forms");
    const refused = await ctx.callTool("load_skill", { name: "pdf-forms" });
    expect(refused.isError).toBe(true);
    const deactivated = await ctx.callTool("skills", { action: "deactivate", skill_name: "pdf-forms" });
    expect(deactivated).toEqual({ content: "Deactivated skill: pdf-forms" });
    expect(ctx.activeSkill).toBeUndefined();
    const bad = await ctx.callTool("skills", { action: "enable", skill_name: "pdf-forms" });
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('action: Invalid option: expected one of "activate"|"deactivate"');
  });

  it("tells the model how to deactivate in a refusal", async () => {
    const ctx = await context("strands", { tools: { host: [{ name: "Write", execute: () => "w" }] } });
    await ctx.callTool("skills", { action: "activate", skill_name: "pdf-forms" });
    expect((await ctx.callTool("Write", {})).content).toContain(
      'call skills { "action": "deactivate", "skill_name": "pdf-forms" } to restore every tool',
    );
  });
});

describe("openhands: invoke_skill { name }", () => {
  it("loads the skill", async () => {
    const ctx = await context("openhands");
    const result = await ctx.callTool("invoke_skill", { name: "with-resources" });
    expect(
      result.content.startsWith(
        '<skill-loaded name="with-resources">\nRead data/reference.txt before answering.\n</skill-loaded>',
      ),
    ).toBe(true);
    expect(ctx.activeSkill).toBe("with-resources");
  });
});

describe("claude: Skill { skill }", () => {
  it("loads the skill and refuses unknown names", async () => {
    const ctx = await context("claude");
    expect((await ctx.callTool("Skill", { skill: "pdf-forms" })).content).toContain("# Filling PDF forms");
    expect(ctx.activeSkill).toBe("pdf-forms");
    expect(await ctx.callTool("Skill", { skill: "nope" })).toEqual({
      isError: true,
      content: 'Unknown skill "nope". Available skills: pdf-forms, release-notes, with-resources.',
    });
  });
});

describe("langflow: load_skill { skill_name } and read_skill_file { skill_name, filename } answer JSON", () => {
  it("load_skill returns skill_name, description, instructions and available_files", async () => {
    const ctx = await context("langflow");
    const result = await ctx.callTool("load_skill", { skill_name: "pdf-forms" });
    expect(result.isError).toBeUndefined();
    const json = JSON.parse(result.content);
    expect(Object.keys(json)).toEqual(["skill_name", "description", "instructions", "available_files"]);
    expect(json.skill_name).toBe("pdf-forms");
    expect(json.description).toBe(
      "Fill in PDF forms from structured data. Use when the user asks to fill, complete or inspect a PDF form.",
    );
    expect(json.instructions).toContain("# Filling PDF forms");
    expect(json.instructions).not.toContain("<skill-loaded");
    expect(json.available_files).toContain("references/forms.md");
    expect(ctx.activeSkill).toBe("pdf-forms");
  });

  it("load_skill answers an unknown name with error and available_skills", async () => {
    const ctx = await context("langflow");
    const result = await ctx.callTool("load_skill", { skill_name: "nope" });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content)).toEqual({
      error: 'Unknown skill "nope". Available skills: pdf-forms, release-notes, with-resources.',
      available_skills: ["pdf-forms", "release-notes", "with-resources"],
    });
  });

  it("read_skill_file returns skill_name, filename and content, or error", async () => {
    const ctx = await context("langflow");
    const ok = await ctx.callTool("read_skill_file", { skill_name: "pdf-forms", filename: "references/forms.md" });
    expect(JSON.parse(ok.content)).toEqual({
      skill_name: "pdf-forms",
      filename: "references/forms.md",
      content: await forms(),
    });
    const refused = await ctx.callTool("read_skill_file", {
      skill_name: "pdf-forms",
      filename: "../release-notes/SKILL.md",
    });
    expect(refused.isError).toBe(true);
    expect(Object.keys(JSON.parse(refused.content))).toEqual(["error"]);
    expect(JSON.parse(refused.content).error).toContain("`..` is not allowed");
  });

  it("names the available skills in the tool descriptions", async () => {
    const ctx = await context("langflow");
    const tools = (await ctx.buildContext([])).tools;
    const load = tools.find((tool) => tool.name === "load_skill")!;
    expect(load.description.endsWith("Available skills: pdf-forms, release-notes, with-resources.")).toBe(true);
  });
});
