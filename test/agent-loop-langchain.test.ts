// Runs no python3 and no uv: "python3" appears only as text (a skill's allowed-tools), so no tool gate is needed.
/**
 * A real LangChain.js agent loop: `createAgent` from `langchain` with `skillctxMiddleware(ctx)`, driven by
 * `fakeModel()` (`@langchain/core/testing`, the package's own scripted chat model). The main script reads
 * a file that a path rule covers, loads a skill with allowed-tools and tries a tool it refuses, loads a
 * skill whose MCP server starts mid-run and calls that server's tool, and then the conversation resumes
 * in a new context from the saved state. Others: an MCP server that a keyword starts, allowed-tools in
 * `refuse` mode, and the host's own LangChain tool. Each model call is checked as a provider would
 * receive it (its messages, and its bound tools converted with `convertToOpenAITool`).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent, tool } from "langchain";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { AgentContext } from "skillctx";
import type { AgentContextOptions, ContextStep, HostTool } from "skillctx";
import { skillctxMiddleware } from "skillctx/langchain";
import { ROOT } from "./helpers/cli.js";
import { recordingModel } from "./helpers/langchain.js";
import type { RecordedCall } from "./helpers/langchain.js";
import { useToolSkills } from "./helpers/tools-fixture.js";
import { withDefaults } from "./helpers/options.js";

/** allowed-tools narrowing the listed tools (`tools.filter: "filter"`; the default, "refuse", keeps them). */
const FILTER = { tools: { filter: "filter" } } as const;

const SERVER = path.join(ROOT, "fixtures/mcp/server.mjs");
const PROJECT_SKILLS = {
  "tax-terms.md": "---\ntriggers:\n  - tax form\n---\nA tax form has a payer and a payee.\n",
  "forms-rules.md": "---\npaths: forms/**\n---\nForm files are read-only; write filled forms to out/.\n",
  "notes/SKILL.md":
    "---\nname: notes\ndescription: Keeps notes through the notes MCP server.\n---\nCall the notes server's echo tool.\n",
  "notes/.mcp.json": JSON.stringify({ mcpServers: { notes: { command: "node", args: [SERVER, "--name", "notes"] } } }),
};
const suite = useToolSkills({ trust: { project: true } }, async (copy) => {
  for (const [file, text] of Object.entries(PROJECT_SKILLS)) {
    // Single-file skills are OpenHands microagents; a loose .md in .agents/skills is no skill.
    const full = path.join(copy.cwd, file.includes("/") ? ".agents/skills" : ".openhands/microagents", file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, text);
  }
});

function hostTools(log: string[]): HostTool[] {
  const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
  return [
    {
      name: "Read",
      description: "Read a file",
      inputSchema: schema,
      execute: async (args) => (log.push(`Read ${JSON.stringify(args)}`), "%PDF form fields: name"),
    },
    {
      name: "Write",
      description: "Write a file",
      inputSchema: schema,
      execute: async (args) => (log.push(`Write ${JSON.stringify(args)}`), "written"),
    },
    {
      name: "Bash",
      description: "Run a command",
      inputSchema: { type: "object", properties: { command: { type: "string" } } },
      execute: async () => "ran",
    },
  ];
}

const options = (log: string[], extra: Partial<AgentContextOptions> = {}): Partial<AgentContextOptions> =>
  withDefaults({ systemPrompt: "You are a form-filling agent.", tools: { host: hostTools(log) } }, extra);

const text = (content: unknown): string[] =>
  typeof content === "string" ? [content] : (content as Array<{ text?: string }>).map((part) => part.text ?? "");
const names = (call: RecordedCall) => call.tools.map((tool) => tool.name);
const last = (call: RecordedCall) => call.messages[call.messages.length - 1]!;

const HOST = ["Read", "Write", "Bash"];
const SKILL_TOOLS = ["load_skill", "read_skill_resource", "run_skill_script", "unload_skill"];

describe("createAgent with skillctxMiddleware", () => {
  it("attaches by keyword and path, loads skills, refuses a disallowed tool, reaches an MCP tool that appears mid-run, and resumes", async () => {
    const log: string[] = [];
    const ctx = await suite.context(options(log, FILTER));
    const steps: ContextStep[] = [];
    const { model, recorded } = recordingModel();
    model
      .respondWithTools([{ id: "c1", name: "Read", args: { path: "forms/ada.pdf" } }])
      .respondWithTools([{ id: "c2", name: "load_skill", args: { name: "pdf-forms" } }])
      .respondWithTools([{ id: "c3", name: "Write", args: { path: "out.pdf" } }])
      .respondWithTools([{ id: "c4", name: "unload_skill", args: { name: "pdf-forms" } }])
      .respondWithTools([{ id: "c5", name: "load_skill", args: { name: "notes" } }])
      .respondWithTools([{ id: "c6", name: "mcp__notes__echo", args: { text: "kept" } }])
      .respond(new AIMessage("Done: the form is filled."));
    const agent = createAgent({ model, middleware: [skillctxMiddleware(ctx, { onStep: (step) => steps.push(step) })] });
    const result = await agent.invoke({
      messages: [new HumanMessage("Please fill the tax form for Ada from forms/ada.pdf.")],
    });

    const calls = recorded();
    expect(calls).toHaveLength(7);
    expect(result.messages.at(-1)?.content).toBe("Done: the form is filled.");

    // The system message is the context's, the same on every call: host prompt and catalog, no skill body.
    const system = calls[0]!.messages[0]!;
    expect(system.type).toBe("system");
    for (const call of calls) expect(call.messages[0]).toEqual(system);
    expect(text(system.content).join("")).toContain("You are a form-filling agent.");
    expect(text(system.content).join("")).toContain("<name>pdf-forms</name>");
    expect(text(system.content).join("")).not.toContain("Never use the shell");

    // Keyword: the skill's text is extra text content of the user message, on every call.
    for (const call of calls) {
      const userMessage = call.messages[1]!;
      expect(userMessage.type).toBe("human");
      const parts = text(userMessage.content);
      expect(parts[0]).toBe("Please fill the tax form for Ada from forms/ada.pdf.");
      expect(parts[1]).toContain("A tax form has a payer and a payee.");
    }

    // Path rule: attached inside the ToolMessage of the Read whose path it covers.
    const read = last(calls[1]!);
    expect(read).toMatchObject({ type: "tool", tool_call_id: "c1", status: "success" });
    expect(text(read.content)[0]).toBe("%PDF form fields: name");
    expect(text(read.content)[1]).toContain("Form files are read-only; write filled forms to out/.");
    expect(log[0]).toBe('Read {"path":"forms/ada.pdf"}');

    // Each call's messages begin with the previous call's, byte for byte (attachments are frozen).
    for (let k = 1; k < calls.length; k++) {
      const before = calls[k - 1]!.messages;
      expect(JSON.stringify(calls[k]!.messages.slice(0, before.length))).toBe(JSON.stringify(before));
    }

    // load_skill: the body comes back as the tool result; allowed-tools narrow the tools while it is active.
    expect(text(last(calls[2]!).content).join("")).toMatch(/^<skill-loaded name="pdf-forms">\n# Filling PDF forms/);
    const all = [...HOST, ...SKILL_TOOLS];
    const narrowed = ["Read", "Bash", ...SKILL_TOOLS];
    expect(calls.slice(0, 5).map(names)).toEqual([all, all, narrowed, narrowed, all]);

    // The refused call never ran and reached the model as an error ToolMessage.
    expect(last(calls[3]!)).toMatchObject({ type: "tool", tool_call_id: "c3", status: "error" });
    expect(text(last(calls[3]!).content).join("")).toContain(
      'The tool "Write" is not allowed while the skill "pdf-forms" is active',
    );
    expect(log.filter((line) => line.startsWith("Write"))).toEqual([]);

    // Mid-run tool: loading notes starts its MCP server; the next call lists its tools with their own schema.
    expect(names(calls[4]!)).not.toContain("mcp__notes__echo");
    expect(names(calls[5]!).slice(0, all.length)).toEqual(all);
    const echo = calls[5]!.tools.find((tool) => tool.name === "mcp__notes__echo");
    expect(echo?.parameters).toEqual({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    expect(last(calls[6]!)).toMatchObject({ type: "tool", tool_call_id: "c6", status: "success", content: "kept" });

    expect(steps.map((step) => step.activated)).toEqual([
      [{ skill: "tax-terms", trigger: "keyword", match: "tax form", messageIndex: 0 }],
      [{ skill: "forms-rules", trigger: "path", match: "forms/ada.pdf", messageIndex: 2 }],
      [{ skill: "pdf-forms", trigger: "load" }],
      [],
      [],
      [{ skill: "notes", trigger: "load" }],
      [],
    ]);

    // Resume: a new context from the saved state and a new agent over the same history.
    const saved = ctx.state;
    await ctx.close();
    const resumed = await AgentContext.create({
      cwd: suite.copy.cwd,
      skills: [suite.copy.skills],
      guidance: false,
      trust: { project: true },
      ...options(log, FILTER),
      conversation: {
        state: saved,
      },
    });
    try {
      const second = recordingModel();
      // Message ids of its own: fakeModel numbers its answers from "0", and the agent's state replaces a message with a known id.
      second.model
        .respond(
          new AIMessage({
            id: "resumed-0",
            content: "",
            tool_calls: [{ id: "c7", name: "mcp__notes__echo", args: { text: "again" }, type: "tool_call" }],
          }),
        )
        .respond(new AIMessage({ id: "resumed-1", content: "Bye." }));
      const again = createAgent({ model: second.model, middleware: [skillctxMiddleware(resumed)] });
      await again.invoke({ messages: [...result.messages, new HumanMessage("Echo it again, please.")] });
      const [first, next] = second.recorded();
      // The prefix the model saw before is the same bytes after the resume, attachments included.
      const previous = calls[6]!.messages;
      expect(JSON.stringify(first!.messages.slice(0, previous.length))).toBe(JSON.stringify(previous));
      expect(first!.messages.slice(previous.length).map((m) => m.type)).toEqual(["ai", "human"]);
      // notes is still the active skill: its server runs again and its tool answers.
      expect(first!.tools).toEqual(calls[6]!.tools);
      expect(last(next!)).toMatchObject({ type: "tool", tool_call_id: "c7", status: "success", content: "again" });
    } finally {
      await resumed.close();
    }
  });

  it("offers the MCP tools of a skill that a keyword fires on the same model call, and runs them", async () => {
    const calc = [
      "---",
      "triggers: [calculate]",
      "mcp_tools:",
      "  mcpServers:",
      "    calc:",
      "      command: node",
      `      args: [${JSON.stringify(SERVER)}, "--name", "calc"]`,
      "---",
      "Use the calc server's add tool for arithmetic.",
      "",
    ].join("\n");
    await writeFile(path.join(suite.copy.cwd, ".openhands/microagents/calc.md"), calc);
    const ctx = await suite.context(options([]));
    const { model, recorded } = recordingModel();
    model.respondWithTools([{ id: "c1", name: "mcp__calc__add", args: { a: 2, b: 3 } }]).respond(new AIMessage("5"));
    const agent = createAgent({ model, middleware: [skillctxMiddleware(ctx)] });
    await agent.invoke({ messages: [new HumanMessage("Please calculate 2 + 3.")] });
    const calls = recorded();
    expect(names(calls[0]!)).toContain("mcp__calc__add");
    expect(text(calls[0]!.messages[1]!.content)[1]).toContain("Use the calc server's add tool for arithmetic.");
    expect(last(calls[1]!)).toMatchObject({ type: "tool", tool_call_id: "c1", status: "success", content: "5" });
  });

  it('by default (tools.filter "refuse"), binds the same tools on every call and answers the disallowed call with skillctx\'s refusal', async () => {
    const log: string[] = [];
    const ctx = await suite.context(options(log));
    const { model, recorded } = recordingModel();
    model
      .respondWithTools([{ id: "c1", name: "load_skill", args: { name: "pdf-forms" } }])
      .respondWithTools([{ id: "c2", name: "Write", args: { path: "out.pdf" } }])
      .respond(new AIMessage("ok"));
    await createAgent({ model, middleware: [skillctxMiddleware(ctx)] }).invoke({
      messages: [new HumanMessage("Fill the form.")],
    });
    const calls = recorded();
    const tools = calls.map((call) => JSON.stringify(call.tools));
    for (const bound of tools) expect(bound).toBe(tools[0]);
    expect(last(calls[2]!)).toMatchObject({ type: "tool", tool_call_id: "c2", status: "error" });
    expect(text(last(calls[2]!).content).join("")).toBe(
      'The tool "Write" is not allowed while the skill "pdf-forms" is active (its allowed-tools: Read, run_skill_script, Bash(python3:*)). ' +
        'Use an allowed tool, or call unload_skill { "name": "pdf-forms" } to restore every tool.',
    );
    expect(log).toEqual([]);
  });

  it("passes tools given to createAgent directly through, unfiltered and run as they are", async () => {
    const log: string[] = [];
    const ctx = await suite.context(options(log));
    const weather = tool(async ({ city }: { city: string }) => `Sunny in ${city}`, {
      name: "weather",
      description: "The weather in a city",
      schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const { model, recorded } = recordingModel();
    model.respondWithTools([{ id: "c1", name: "weather", args: { city: "Paris" } }]).respond(new AIMessage("ok"));
    await createAgent({ model, tools: [weather], middleware: [skillctxMiddleware(ctx)] }).invoke({
      messages: [new HumanMessage("Weather?")],
    });
    const calls = recorded();
    expect(names(calls[0]!)).toEqual([...HOST, ...SKILL_TOOLS, "weather"]);
    expect(last(calls[1]!)).toMatchObject({ type: "tool", tool_call_id: "c1", content: "Sunny in Paris" });
  });
});
