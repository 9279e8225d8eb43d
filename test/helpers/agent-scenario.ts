/**
 * The scripted session that the AI SDK and OpenAI Agents JS end-to-end tests drive through each
 * framework's real loop: a keyword attachment, a path rule on a tool result, `load_skill` of a skill
 * whose MCP server then starts (its tool called in the same run), a tool refused by that skill's
 * allowed-tools, and a resumed context.
 */
import path from "node:path";
import { put } from "../../packages/core/src/testing/temp-dir.js";
import type { AgentContext, AgentContextOptions, HostTool, Message } from "skillctx";
import { ROOT } from "./cli.js";
import { useToolSkills } from "./tools-fixture.js";
import type { ToolSkillsSuite } from "./tools-fixture.js";
import { withDefaults } from "./options.js";

export const SERVER = path.join(ROOT, "fixtures/mcp/server.mjs");
export const HOST_PROMPT = "You are a form-filling agent.";
export const USER_TEXT = "Please fill the tax form for Ada.";
export const KEYWORD_TEXT = "A tax form has a payer and a payee.";
export const PATH_RULE_TEXT = "Schema changes need a migration file.";
export const SCHEMA_TEXT = "export const schema = {}";

/** A scripted model turn: call a tool, or answer with text. */
export type Turn = { call: string; input: unknown } | { text: string };

/** The first run: Read (path rule fires), load notes (its MCP server starts), call its tool, try Write (refused), answer. */
export const RUN: Turn[] = [
  { call: "Read", input: { path: "src/db/schema.ts" } },
  { call: "load_skill", input: { name: "notes" } },
  { call: "mcp__notes__echo", input: { text: "remember Ada" } },
  { call: "Write", input: { path: "out.txt" } },
  { text: "Done: noted." },
];
/** The resumed run: the loaded skill's MCP tool is there again. */
export const RESUMED_USER_TEXT = "Echo it once more.";
export const RESUMED_RUN: Turn[] = [{ call: "mcp__notes__echo", input: { text: "again" } }, { text: "Echoed." }];

/** The tools offered with no skill loaded, and while notes is loaded (its allowed-tools: Read and its echo tool). */
export const ALL_TOOLS = ["Read", "Write", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"];
export const NOTES_TOOLS = [
  "Read",
  "load_skill",
  "read_skill_resource",
  "run_skill_script",
  "unload_skill",
  "mcp__notes__echo",
];

const NOTES_SKILL = `---
name: notes
description: Keeps notes through the notes MCP server.
allowed-tools: Read mcp__notes__echo
---
Call the notes server's echo tool with what to remember.
`;

/**
 * Each test gets a copy of fixtures/tools/skills plus: `tax-terms.md` (keyword "tax form"), `db-rules.md`
 * (path rule `src/db/**`) and the `notes` skill with a `.mcp.json` that starts the fixture MCP server.
 */
export function useScenario(): ToolSkillsSuite & {
  context(log: string[], options?: Partial<AgentContextOptions>): Promise<AgentContext>;
} {
  const suite = useToolSkills({}, async (copy) => {
    await put(
      copy.cwd,
      "tax-terms.md",
      `---\ndescription: Tax vocabulary.\ntriggers:\n  - tax form\n---\n${KEYWORD_TEXT}\n`,
    );
    await put(copy.cwd, "db-rules.md", `---\npaths: src/db/**\n---\n${PATH_RULE_TEXT}\n`);
    await put(copy.skills, "notes/SKILL.md", NOTES_SKILL);
    await put(
      copy.skills,
      "notes/.mcp.json",
      JSON.stringify({ mcpServers: { notes: { command: "node", args: [SERVER, "--name", "notes"] } } }),
    );
  });
  return {
    get copy() {
      return suite.copy;
    },
    context: (log: string[], options: Partial<AgentContextOptions> = {}) =>
      suite.context(
        withDefaults(
          {
            skills: [
              suite.copy.skills,
              path.join(suite.copy.cwd, "tax-terms.md"),
              path.join(suite.copy.cwd, "db-rules.md"),
            ],
            systemPrompt: HOST_PROMPT,
            tools: {
              host: hostTools(log),
            },
          },
          options,
        ),
      ),
  } as ToolSkillsSuite & { context(log: string[], options?: Partial<AgentContextOptions>): Promise<AgentContext> };
}

/** Read and Write host tools that log their calls. */
export function hostTools(log: string[]): HostTool[] {
  const schema = {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
    additionalProperties: false,
  };
  return [
    {
      name: "Read",
      description: "Read a file",
      inputSchema: schema,
      execute: async (args) => (log.push(`Read ${JSON.stringify(args)}`), SCHEMA_TEXT),
    },
    {
      name: "Write",
      description: "Write a file",
      inputSchema: schema,
      execute: async (args) => (log.push(`Write ${JSON.stringify(args)}`), "written"),
    },
  ];
}

/** Records the messages each step hands to `ctx.buildContext` (a copy of the array, the same message objects). */
export function spyOnSteps(ctx: AgentContext): Message[][] {
  const seen: Message[][] = [];
  const original = ctx.buildContext.bind(ctx);
  ctx.buildContext = (messages, options) => (seen.push([...messages]), original(messages, options));
  return seen;
}
