/**
 * The Agents JS adapter's input filter without a runner: items read as messages, attached text placed
 * in each item's native form, and fresh copies of the items (what the runner passes every turn)
 * recognised by position and content, so the engine sees the known prefix as the same objects.
 */
import { describe, expect, it } from "vitest";
import {
  createOpenAIAgentsLoop,
  fromAgentItems,
  skillctxInputFilter,
  toOpenAIAgentsTools,
} from "skillctx/openai-agents";
import type { AgentContext } from "skillctx";
import { put } from "../packages/core/src/testing/temp-dir.js";
import { spyOnSteps } from "./helpers/agent-scenario.js";
import { skillctxDependency, useToolSkills } from "./helpers/tools-fixture.js";

type AgentsModule = typeof import("@openai/agents");
const agents = skillctxDependency<AgentsModule>("@openai/agents");
type AgentInputItem = import("@openai/agents").AgentInputItem;
type Filter = ReturnType<typeof skillctxInputFilter>;

const RULE = "Schema changes need a migration file.";
const suite = useToolSkills({}, (copy) =>
  put(copy.cwd, "db-rules.md", `---\npaths: src/db/**\n---\n${RULE}\n`).then(() => undefined),
);

function context(filter?: "filter"): Promise<AgentContext> {
  return suite.context({
    skills: [suite.copy.skills, `${suite.copy.cwd}/db-rules.md`],
    systemPrompt: "Host prompt.",
    tools: {
      ...(filter === undefined ? {} : { filter }),
      host: [
        {
          name: "Read",
          description: "Read a file",
          inputSchema: { type: "object", properties: { path: { type: "string" } } },
          execute: () => "contents",
        },
        { name: "Write", description: "Write a file", execute: () => "written" },
      ],
    },
  });
}

const filter = (f: Filter, input: AgentInputItem[]) =>
  Promise.resolve(f({ modelData: { input, instructions: "ignored" }, agent: {} as never, context: undefined }));

const read = (callId: string, path: string, output: unknown): AgentInputItem[] =>
  [
    { type: "function_call", callId, name: "Read", arguments: JSON.stringify({ path }), status: "completed" },
    { type: "function_call_result", callId, name: "Read", status: "completed", output },
  ] as AgentInputItem[];

describe("OpenAI Agents input filter", () => {
  it("reads items as messages, one per item", () => {
    const items = [
      { role: "user", content: "check the schema" },
      ...read("f1", "src/db/schema.ts", { type: "text", text: "export const schema = {}" }),
    ] as AgentInputItem[];
    expect(fromAgentItems(items)).toEqual([
      { role: "user", content: "check the schema" },
      { role: "assistant", content: "", toolCalls: [{ id: "f1", name: "Read", args: { path: "src/db/schema.ts" } }] },
      { role: "tool", content: "export const schema = {}", toolCallId: "f1" },
    ]);
    expect(fromAgentItems([{ type: "reasoning", content: [] } as unknown as AgentInputItem])).toEqual([
      { role: "assistant", content: "" },
    ]);
  });

  it.each([
    [
      "a text output",
      { type: "text", text: "export const schema = {}" },
      (out: unknown) => (out as { text: string }).text,
    ],
    ["a string output", "export const schema = {}", (out: unknown) => out as string],
  ])("attaches a path rule inside %s", async (_name, output, text) => {
    const ctx = await context();
    const items = [
      { role: "user", content: "check the schema" } as AgentInputItem,
      ...read("f1", "src/db/schema.ts", output),
    ];
    const out = await filter(skillctxInputFilter(ctx), items);
    // The agent's own instructions are kept, first; the context's system (its systemPrompt first) follows.
    expect(out.instructions).toMatch(/^ignored\n\nHost prompt\./);
    expect(out.input[0]).toBe(items[0]);
    expect(out.input[1]).toBe(items[1]);
    const result = text((out.input[2] as { output: unknown }).output);
    expect(
      result.startsWith('export const schema = {}\n\n<skill name="db-rules" trigger="path" match="src/db/schema.ts">'),
    ).toBe(true);
    expect(result).toContain(RULE);
  });

  it("adds input_text parts to an output list, and follows an image output with a user item", async () => {
    const ctx = await context();
    const items = [
      ...read("f1", "src/db/a.ts", [{ type: "input_text", text: "a" }]),
      ...read("f2", "README.md", "readme"),
    ];
    const out = await filter(skillctxInputFilter(ctx), items);
    const parts = (out.input[1] as { output: Array<{ type: string; text: string }> }).output;
    expect(parts[0]).toEqual({ type: "input_text", text: "a" });
    expect(parts[1]!.type).toBe("input_text");
    expect(parts[1]!.text).toContain(RULE);

    const other = await context();
    const image = read("f3", "src/db/b.png", { type: "image", image: "https://example.com/b.png" });
    const placed = await filter(skillctxInputFilter(other), image);
    expect(placed.input).toHaveLength(3);
    expect(placed.input[1]).toBe(image[1]);
    const follow = placed.input[2] as { role: string; content: Array<{ type: string; text: string }> };
    expect(follow.role).toBe("user");
    expect(follow.content[0]!.text).toContain(RULE);
  });

  it("recognises fresh copies of the items every turn: the engine gets the known messages as the same objects", async () => {
    const ctx = await context();
    const seen = spyOnSteps(ctx);
    const f = skillctxInputFilter(ctx);
    const history: AgentInputItem[] = [
      { role: "user", content: "check the schema" } as AgentInputItem,
      ...read("f1", "src/db/schema.ts", "export const schema = {}"),
    ];
    const outputs: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      // The runner clones every item before the filter, each turn.
      const out = await filter(f, structuredClone(history));
      outputs.push(JSON.stringify(out.input));
      history.push(...read(`g${turn}`, `notes/${turn}.md`, `note ${turn}`));
    }
    for (let turn = 1; turn < seen.length; turn++) {
      const before = seen[turn - 1]!;
      for (let i = 0; i < before.length; i++) expect(seen[turn]![i]).toBe(before[i]);
      expect(seen[turn]!.length).toBe(before.length + 2);
      // The model gets the same bytes for the known items, the rule still inside the first result.
      expect(outputs[turn]!.startsWith(outputs[turn - 1]!.slice(0, -1))).toBe(true);
    }
    expect(outputs[3]).toContain(RULE);
  });

  it("notices a history that was cut or started again, and reads it afresh", async () => {
    const ctx = await context();
    const seen = spyOnSteps(ctx);
    const f = skillctxInputFilter(ctx);
    const history = [{ role: "user", content: "first" } as AgentInputItem, ...read("f1", "README.md", "readme")];
    await filter(f, structuredClone(history));
    await filter(f, structuredClone(history.slice(0, 1)));
    expect(seen[1]).toEqual([seen[0]![0]]);
    expect(seen[1]![0]).toBe(seen[0]![0]);
    await filter(f, [{ role: "user", content: "another conversation" } as AgentInputItem]);
    expect(seen[2]![0]).not.toBe(seen[0]![0]);
    expect(seen[2]).toEqual([{ role: "user", content: "another conversation" }]);
  });

  it("function tools: isEnabled follows allowed-tools; execute answers with the result text, errors included", async () => {
    const ctx = await context("filter");
    const tools = toOpenAIAgentsTools(ctx, { tool: agents.tool });
    expect(tools.map((t) => t.name)).toEqual([
      "Read",
      "Write",
      "load_skill",
      "read_skill_resource",
      "run_skill_script",
      "unload_skill",
    ]);
    const byName = new Map(tools.map((t) => [t.name, t]));
    const runContext = new agents.RunContext();
    const loaded = await byName.get("load_skill")!.invoke(runContext, JSON.stringify({ name: "pdf-forms" }));
    expect(String(loaded)).toMatch(/^<skill-loaded name="pdf-forms">/);
    const enabled = async (name: string) => {
      const isEnabled = byName.get(name)!.isEnabled;
      return typeof isEnabled === "function" ? isEnabled(runContext, {} as never) : isEnabled;
    };
    // pdf-forms allows Read and run_skill_script (and the skill tools stay); Write is hidden until unload.
    expect(await enabled("Read")).toBe(true);
    expect(await enabled("read_skill_resource")).toBe(true);
    expect(await enabled("Write")).toBe(false);
    await byName.get("unload_skill")!.invoke(runContext, JSON.stringify({ name: "pdf-forms" }));
    expect(await enabled("Write")).toBe(true);
    const unknown = await byName
      .get("read_skill_resource")!
      .invoke(runContext, JSON.stringify({ name: "nope", path: "x" }));
    expect(String(unknown)).toContain('Unknown skill "nope"');
  });

  it("createOpenAIAgentsLoop keeps one live tool list that the filter updates", async () => {
    const ctx = await context();
    const loop = createOpenAIAgentsLoop(ctx, { tool: agents.tool });
    const before = loop.tools;
    expect(before.map((t) => t.name)).toEqual([
      "Read",
      "Write",
      "load_skill",
      "read_skill_resource",
      "run_skill_script",
      "unload_skill",
    ]);
    const out = await loop.callModelInputFilter({
      modelData: { input: [{ role: "user", content: "hi" }], instructions: "x" },
      agent: { tools: loop.tools } as never,
      context: undefined,
    });
    expect(out.instructions).toContain("Host prompt.");
    expect(loop.tools).toBe(before);
  });
});
