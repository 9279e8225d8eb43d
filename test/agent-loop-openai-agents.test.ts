/**
 * The same session through the OpenAI Agents JS runner. The SDK ships no scripted test model, but its
 * `Model` interface (getResponse / getStreamedResponse) is public: a model that answers from a script
 * and records each request drives the real `Runner` loop, tools and input filter.
 */
import { describe, expect, it } from "vitest";
import { createOpenAIAgentsLoop } from "skillctx/openai-agents";
import type { AgentContext, ContextStep } from "skillctx";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import {
  ALL_TOOLS,
  HOST_PROMPT,
  KEYWORD_TEXT,
  NOTES_TOOLS,
  PATH_RULE_TEXT,
  RESUMED_RUN,
  RESUMED_USER_TEXT,
  RUN,
  SCHEMA_TEXT,
  SERVER,
  USER_TEXT,
  useScenario,
} from "./helpers/agent-scenario.js";
import type { Turn } from "./helpers/agent-scenario.js";
import { compareCodePoints } from "../packages/core/src/code-point-order.js";

/** allowed-tools narrowing the listed tools (`tools.filter: "filter"`; the default, "refuse", keeps them). */
const FILTER = { tools: { filter: "filter" } } as const;

type AgentsModule = typeof import("@openai/agents");
const agents = skillctxDependency<AgentsModule>("@openai/agents");
type Model = import("@openai/agents").Model;
type AgentInputItem = import("@openai/agents").AgentInputItem;
type ModelRequest = Parameters<Model["getResponse"]>[0];
type ModelResponse = Awaited<ReturnType<Model["getResponse"]>>;
type OutputItem = ModelResponse["output"][number];

function output(turn: Turn, id: string): OutputItem {
  return (
    "text" in turn
      ? { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: turn.text }] }
      : {
          type: "function_call",
          callId: id,
          name: turn.call,
          arguments: JSON.stringify(turn.input),
          status: "completed",
        }
  ) as OutputItem;
}

/** A `Model` that answers from a script and keeps a copy of every request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(
    private readonly script: Turn[],
    private readonly prefix = "c",
  ) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(structuredClone({ ...request, signal: undefined }));
    const turn = this.script[this.requests.length - 1];
    if (turn === undefined) throw new Error(`the script has no answer for request ${this.requests.length}`);
    return {
      usage: new agents.Usage(),
      output: [output(turn, `${this.prefix}${this.requests.length}`)],
      responseId: `r${this.requests.length}`,
    };
  }
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the scripted model does not stream");
  }
}

type Item = { type?: string; role?: string; name?: string; content?: unknown; output?: unknown };
const toolNames = (request: ModelRequest) => request.tools.map((tool) => (tool as { name: string }).name);
const items = (request: ModelRequest) => request.input as Item[];
function lastResult(request: ModelRequest): { name: string; output: unknown } {
  const last = items(request).at(-1)!;
  expect(last.type).toBe("function_call_result");
  return last as { name: string; output: unknown };
}
const outputText = (value: unknown) => (typeof value === "string" ? value : (value as { text: string }).text);
const sorted = (names: string[]) => [...names].sort(compareCodePoints);

function runner(ctx: AgentContext, model: Model, steps: ContextStep[] = []) {
  const loop = createOpenAIAgentsLoop(ctx, { tool: agents.tool, onStep: (step) => steps.push(step) });
  const agent = new agents.Agent({
    name: "forms",
    instructions: "ignored: skillctx gives the instructions",
    tools: loop.tools,
  });
  const run = (input: string | AgentInputItem[]) =>
    new agents.Runner({ model, tracingDisabled: true }).run(agent, input, {
      maxTurns: 10,
      callModelInputFilter: loop.callModelInputFilter,
      toolNotFoundBehavior: "return_error_to_model",
    });
  return { loop, agent, run };
}

const scenario = useScenario();

describe("OpenAI Agents JS runner with createOpenAIAgentsLoop", () => {
  it("keyword and path attachments, load_skill whose MCP tool is called in the same run, allowed-tools refusal, then a resumed context", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log, FILTER);
    const steps: ContextStep[] = [];
    const model = new ScriptedModel(RUN);
    const result = await runner(ctx, model, steps).run(USER_TEXT);
    const requests = model.requests;

    expect(result.finalOutput).toBe("Done: noted.");
    expect(requests).toHaveLength(5);

    // Instructions: the context's system, the same bytes on every turn.
    for (const request of requests) expect(request.systemInstructions).toBe(requests[0]!.systemInstructions);
    expect(requests[0]!.systemInstructions).toContain(HOST_PROMPT);
    expect(requests[0]!.systemInstructions).toContain("<name>notes</name>");

    // The keyword skill is attached to the user item, as an input_text part, on every turn.
    for (const request of requests) {
      const first = items(request)[0]!;
      expect(first.role).toBe("user");
      const parts = first.content as Array<{ type: string; text: string }>;
      expect(parts[0]).toEqual({ type: "input_text", text: USER_TEXT });
      expect(parts[1]!.type).toBe("input_text");
      expect(parts[1]!.text).toMatch(/^<skill name="tax-terms" trigger="keyword" match="tax form">/);
      expect(parts[1]!.text).toContain(KEYWORD_TEXT);
    }

    // Turn 2: the path rule is inside the Read result.
    const read = lastResult(requests[1]!);
    expect(read.name).toBe("Read");
    const readText = outputText(read.output);
    expect(
      readText.startsWith(`${SCHEMA_TEXT}\n\n<skill name="db-rules" trigger="path" match="src/db/schema.ts">`),
    ).toBe(true);
    expect(readText).toContain(PATH_RULE_TEXT);

    // Turn 3: after load_skill the notes server's tool is offered (the runner lists tools before the
    // filter runs; the adapter added it when load_skill returned), and the others narrowed to allowed-tools.
    expect(outputText(lastResult(requests[2]!).output)).toMatch(/^<skill-loaded name="notes">/);
    expect(requests.map((r) => sorted(toolNames(r)))).toEqual(
      [ALL_TOOLS, ALL_TOOLS, NOTES_TOOLS, NOTES_TOOLS, NOTES_TOOLS].map(sorted),
    );

    // Turn 4: the MCP tool ran in the same run. Turn 5: Write, not offered, never ran; the model was told.
    expect(lastResult(requests[3]!).name).toBe("mcp__notes__echo");
    expect(outputText(lastResult(requests[3]!).output)).toBe("remember Ada");
    const refused = lastResult(requests[4]!);
    expect(refused.name).toBe("Write");
    expect(outputText(refused.output)).toContain("Write");
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);

    expect(steps.map((step) => step.activated)).toEqual([
      [{ skill: "tax-terms", trigger: "keyword", match: "tax form", messageIndex: 0 }],
      [{ skill: "db-rules", trigger: "path", match: "src/db/schema.ts", messageIndex: 2 }],
      [{ skill: "notes", trigger: "load" }],
      [],
      [],
    ]);

    // Each turn's input begins with the previous turn's (the same bytes).
    for (let k = 1; k < requests.length; k++) {
      const before = items(requests[k - 1]!);
      expect(JSON.stringify(items(requests[k]!).slice(0, before.length))).toBe(JSON.stringify(before));
    }

    // Resume: a new context from the saved state, a new agent, the run's history plus a new user item.
    const saved = ctx.state;
    await ctx.close();
    const resumed = await scenario.context(log, { ...FILTER, conversation: { state: saved } });
    const resumedSteps: ContextStep[] = [];
    const second = new ScriptedModel(RESUMED_RUN, "r");
    const again = await runner(resumed, second, resumedSteps).run([
      ...result.history,
      { role: "user", content: RESUMED_USER_TEXT },
    ]);
    expect(again.finalOutput).toBe("Echoed.");
    const first = second.requests[0]!;
    expect(first.systemInstructions).toBe(requests[0]!.systemInstructions);
    const previous = items(requests.at(-1)!);
    expect(JSON.stringify(items(first).slice(0, previous.length))).toBe(JSON.stringify(previous));
    expect(second.requests.map((r) => sorted(toolNames(r)))).toEqual([sorted(NOTES_TOOLS), sorted(NOTES_TOOLS)]);
    expect(outputText(lastResult(second.requests[1]!).output)).toBe("again");
    expect(resumedSteps.map((step) => step.activated)).toEqual([[], []]);
  });

  it("offers the tools of an MCP server a keyword starts from the next turn, and keeps the agent's own tools", async () => {
    const ctx = await scenario.context([], {
      skills: [
        {
          name: "calc",
          description: "Arithmetic through the calc server.",
          content: "Use mcp__calc__add for sums.",
          source: { kind: "inline", format: "inline", scope: "programmatic" },
          trigger: { type: "keyword", keywords: ["calculate"] },
          mcpServers: { mcpServers: { calc: { command: "node", args: [SERVER, "--name", "calc"] } } },
        },
      ],
    });
    const model = new ScriptedModel([
      { call: "mcp__calc__add", input: { a: 2, b: 3 } },
      { call: "mcp__calc__add", input: { a: 2, b: 3 } },
      { text: "5" },
    ]);
    const loop = createOpenAIAgentsLoop(ctx, { tool: agents.tool });
    const clock = agents.tool({
      name: "clock",
      description: "The time",
      parameters: { type: "object", properties: {}, required: [], additionalProperties: false },
      strict: true,
      execute: () => "noon",
    });
    // The host spreads the tools into its own list: the adapter keeps the agent's list current anyway.
    const agent = new agents.Agent({ name: "calc", tools: [clock, ...loop.tools] });
    const result = await new agents.Runner({ model, tracingDisabled: true }).run(agent, "please calculate 2 + 3", {
      callModelInputFilter: loop.callModelInputFilter,
      toolNotFoundBehavior: "return_error_to_model",
    });
    expect(result.finalOutput).toBe("5");
    expect(toolNames(model.requests[0]!)).not.toContain("mcp__calc__add");
    expect(outputText(lastResult(model.requests[1]!).output)).toContain("mcp__calc__add");
    expect(toolNames(model.requests[1]!)).toContain("mcp__calc__add");
    expect(toolNames(model.requests[1]!)[0]).toBe("clock");
    expect(outputText(lastResult(model.requests[2]!).output)).toBe("5");
  });

  it('by default (tools.filter "refuse"), offers every tool and answers the disallowed call with skillctx\'s refusal', async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log);
    const model = new ScriptedModel(RUN);
    await runner(ctx, model).run(USER_TEXT);
    const lists = model.requests.map((r) => JSON.stringify(r.tools));
    expect(toolNames(model.requests[2]!)).toContain("mcp__notes__echo");
    expect(lists[1]).toBe(lists[0]);
    for (const list of lists.slice(3)) expect(list).toBe(lists[2]);
    expect(outputText(lastResult(model.requests[4]!).output)).toBe(
      'The tool "Write" is not allowed while the skill "notes" is active (its allowed-tools: Read, mcp__notes__echo). ' +
        'Use an allowed tool, or call unload_skill { "name": "notes" } to restore every tool.',
    );
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);
  });

  it("unload_skill withdraws the MCP tool on the next turn; a late call to it is answered, not run", async () => {
    const ctx = await scenario.context([], FILTER);
    const model = new ScriptedModel([
      { call: "load_skill", input: { name: "notes" } },
      { call: "unload_skill", input: { name: "notes" } },
      { call: "mcp__notes__echo", input: { text: "late" } },
      { text: "ok" },
    ]);
    const { loop, run } = runner(ctx, model);
    await run("hi");
    expect(model.requests.map((r) => sorted(toolNames(r)))).toEqual(
      [ALL_TOOLS, NOTES_TOOLS, ALL_TOOLS, ALL_TOOLS].map(sorted),
    );
    expect(loop.tools.map((tool) => tool.name)).toEqual(ALL_TOOLS);
    expect(outputText(lastResult(model.requests[3]!).output)).toContain("mcp__notes__echo");
  });
});
