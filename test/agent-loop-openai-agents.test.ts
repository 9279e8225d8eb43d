/**
 * The same scenario through the OpenAI Agents JS runner. The SDK ships no scripted test model, but its
 * `Model` interface (getResponse / getStreamedResponse) is public: a model that answers from a script
 * and records each request is enough to drive the real `Runner` loop, tools and input filter.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { skillctxInputFilter, toOpenAIAgentsTools } from "skillctx/openai-agents";
import type { AgentContext, AgentContextOptions, ContextStep, HostTool } from "skillctx";
import { useToolSkills, skillctxDependency } from "./helpers/tools-fixture.js";

type AgentsModule = typeof import("@openai/agents");
const agents = skillctxDependency<AgentsModule>("@openai/agents");
type Model = import("@openai/agents").Model;
type ModelRequest = Parameters<Model["getResponse"]>[0];
type ModelResponse = Awaited<ReturnType<Model["getResponse"]>>;
type OutputItem = ModelResponse["output"][number];

const TAX_TERMS = "---\ntriggers:\n  - tax form\n---\nA tax form has a payer and a payee.\n";
const suite = useToolSkills({}, (copy) => writeFile(path.join(suite.copy.cwd, "tax-terms.md"), TAX_TERMS));

const functionCall = (callId: string, name: string, args: unknown): OutputItem =>
  ({ type: "function_call", callId, name, arguments: JSON.stringify(args), status: "completed" }) as OutputItem;
const message = (text: string): OutputItem =>
  ({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] }) as OutputItem;

/** A `Model` that answers from a script and keeps every request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly script: OutputItem[]) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(structuredClone({ ...request, signal: undefined }));
    const next = this.script[this.requests.length - 1];
    if (next === undefined) throw new Error(`the script has no answer for request ${this.requests.length}`);
    return { usage: new agents.Usage(), output: [next], responseId: `r${this.requests.length}` };
  }
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the scripted model does not stream");
  }
}

function hostTools(log: string[]): HostTool[] {
  const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false };
  return [
    { name: "Read", description: "Read a file", inputSchema: schema, execute: async (args) => (log.push(`Read ${JSON.stringify(args)}`), "file text") },
    { name: "Write", description: "Write a file", inputSchema: schema, execute: async (args) => (log.push(`Write ${JSON.stringify(args)}`), "written") },
  ];
}

function context(log: string[], options: Partial<AgentContextOptions> = {}): Promise<AgentContext> {
  return suite.context({
    skills: [suite.copy.skills, path.join(suite.copy.cwd, "tax-terms.md")],
    systemPrompt: "You are a form-filling agent.",
    tools: hostTools(log),
    ...options,
  });
}

const SCRIPT = [
  functionCall("c1", "load_skill", { name: "pdf-forms" }),
  functionCall("c2", "read_skill_resource", { name: "pdf-forms", path: "references/forms.md" }),
  functionCall("c3", "run_skill_script", { name: "pdf-forms", script: "scripts/fill.py", args: ["name=Ada"] }),
  functionCall("c4", "Write", { path: "out.pdf" }),
  functionCall("c5", "unload_skill", { name: "pdf-forms" }),
  message("Done: the form is filled."),
];

const toolNames = (request: ModelRequest) => request.tools.map((tool) => (tool as { name: string }).name);
function lastOutput(request: ModelRequest): { name: string; output: unknown } {
  const items = request.input as Array<{ type?: string; name: string; output: unknown }>;
  const last = items[items.length - 1]!;
  expect(last.type).toBe("function_call_result");
  return last;
}
const outputText = (output: unknown) => (typeof output === "string" ? output : (output as { text: string }).text);

async function runScenario(ctx: AgentContext, steps: ContextStep[] = []) {
  const model = new ScriptedModel(SCRIPT);
  const agent = new agents.Agent({ name: "forms", instructions: "ignored: skillctx provides the instructions", tools: toOpenAIAgentsTools(ctx, { tool: agents.tool }) });
  const runner = new agents.Runner({
    model,
    tracingDisabled: true,
    toolNotFoundBehavior: "return_error_to_model",
    callModelInputFilter: skillctxInputFilter(ctx, { onStep: (step) => steps.push(step) }),
  });
  const result = await runner.run(agent, "Please fill the tax form for Ada.", { maxTurns: 10 });
  return { model, result };
}

describe("OpenAI Agents JS runner loop", () => {
  it("loads a skill, reads a resource, runs a script, and cannot use a tool the skill does not allow", async () => {
    const log: string[] = [];
    const ctx = await context(log);
    const steps: ContextStep[] = [];
    const { model, result } = await runScenario(ctx, steps);
    const requests = model.requests;

    expect(result.finalOutput).toBe("Done: the form is filled.");
    expect(requests).toHaveLength(6);

    // Instructions are the context's system prompt, the same bytes on every turn.
    for (const request of requests) expect(request.systemInstructions).toBe(requests[0]!.systemInstructions);
    expect(requests[0]!.systemInstructions).toContain("You are a form-filling agent.");
    expect(requests[0]!.systemInstructions).toContain("<name>pdf-forms</name>");

    // The keyword skill's text is attached to the user item.
    const firstUser = (requests[0]!.input as Array<{ role?: string; content: unknown }>)[0]!;
    expect(firstUser.role).toBe("user");
    expect(JSON.stringify(firstUser.content)).toContain("A tax form has a payer and a payee.");

    expect(steps.map((s) => s.activated)).toEqual([
      [{ skill: "tax-terms", trigger: "keyword", match: "tax form", messageIndex: 0 }],
      [{ skill: "pdf-forms", trigger: "load" }],
      [],
      [],
      [],
      [],
    ]);

    // Tool results.
    expect(outputText(lastOutput(requests[1]!).output)).toMatch(/^<skill-loaded name="pdf-forms">\n# Filling PDF forms/);
    const forms = await readFile(path.join(suite.copy.skills, "pdf-forms/references/forms.md"), "utf8");
    expect(outputText(lastOutput(requests[2]!).output)).toBe(forms);
    expect(outputText(lastOutput(requests[3]!).output)).toBe("cwd=pdf-forms\nfilled name -> Ada");

    // Filtering: Write is not offered while pdf-forms is active; the runner answers the call with an error and never runs it.
    const all = ["Read", "Write", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"];
    const filtered = ["Read", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"];
    expect(requests.map(toolNames)).toEqual([all, filtered, filtered, filtered, filtered, all]);
    const refused = lastOutput(requests[4]!);
    expect(refused.name).toBe("Write");
    expect(outputText(refused.output)).toContain("Write");
    expect(log).toEqual([]);
    expect(ctx.activeSkill).toBeUndefined();
  });

  it("with toolFilter refuse, offers every tool and answers the disallowed call with skillctx's refusal", async () => {
    const log: string[] = [];
    const ctx = await context(log, { toolFilter: "refuse" });
    const { model } = await runScenario(ctx);
    const lists = model.requests.map((r) => JSON.stringify(r.tools));
    for (const list of lists) expect(list).toBe(lists[0]);
    expect(outputText(lastOutput(model.requests[4]!).output)).toContain(
      'The tool "Write" is not allowed while the skill "pdf-forms" is active',
    );
    expect(log).toEqual([]);
  });
});
