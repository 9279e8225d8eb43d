/**
 * A real AI SDK agent loop: `generateText` with tools from `toAiSdkTools(ctx)` and `skillctxPrepareStep(ctx)`,
 * driven by the SDK's own mock language model scripted to load a skill, read a resource, run a script and
 * try a tool the active skill does not allow.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { skillctxPrepareStep, toAiSdkTools } from "skillctx/ai-sdk";
import type { AgentContext, AgentContextOptions, ContextStep, HostTool } from "skillctx";
import { useToolSkills, skillctxDependency } from "./helpers/tools-fixture.js";

const { generateText, stepCountIs } = skillctxDependency<typeof import("ai")>("ai");
const { MockLanguageModelV3 } = skillctxDependency<typeof import("ai/test")>("ai/test");

type CallOptions = Parameters<InstanceType<typeof MockLanguageModelV3>["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<InstanceType<typeof MockLanguageModelV3>["doGenerate"]>>;

const TAX_TERMS = "---\ntriggers:\n  - tax form\n---\nA tax form has a payer and a payee.\n";
const suite = useToolSkills({}, (copy) => writeFile(path.join(suite.copy.cwd, "tax-terms.md"), TAX_TERMS));

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const call = (id: string, toolName: string, input: unknown): GenerateResult => ({
  content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const say = (text: string): GenerateResult => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});

/** A scripted model: answers each call with the next result and keeps what it was sent. */
function scriptedModel(script: GenerateResult[]) {
  const calls: CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options: CallOptions) => {
      calls.push(options);
      const next = script[calls.length - 1];
      if (next === undefined) throw new Error(`the script has no answer for call ${calls.length}`);
      return next;
    },
  });
  return { model, calls };
}

function hostTools(log: string[]): HostTool[] {
  const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
  return [
    { name: "Read", description: "Read a file", inputSchema: schema, execute: async (args) => (log.push(`Read ${JSON.stringify(args)}`), "file text") },
    { name: "Write", description: "Write a file", inputSchema: schema, execute: async (args) => (log.push(`Write ${JSON.stringify(args)}`), "written") },
    { name: "Bash", description: "Run a command", inputSchema: { type: "object", properties: { command: { type: "string" } } }, execute: async () => "ran" },
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

const toolNames = (options: CallOptions) => (options.tools ?? []).map((tool) => tool.name);
function lastToolResult(options: CallOptions): { toolName: string; output: { type: string; value?: unknown } } {
  const last = options.prompt[options.prompt.length - 1]!;
  expect(last.role).toBe("tool");
  const part = (last.content as Array<{ type: string }>).at(-1) as { type: string; toolName: string; output: { type: string; value?: unknown } };
  expect(part.type).toBe("tool-result");
  return part;
}

const SCRIPT = [
  call("c1", "load_skill", { name: "pdf-forms" }),
  call("c2", "read_skill_resource", { name: "pdf-forms", path: "references/forms.md" }),
  call("c3", "run_skill_script", { name: "pdf-forms", script: "scripts/fill.py", args: ["name=Ada"] }),
  call("c4", "Write", { path: "out.pdf" }),
  call("c5", "unload_skill", { name: "pdf-forms" }),
  say("Done: the form is filled."),
];

describe("generateText agent loop", () => {
  it("loads a skill, reads a resource, runs a script, and cannot use a tool the skill does not allow", async () => {
    const log: string[] = [];
    const ctx = await context(log);
    const steps: ContextStep[] = [];
    const { model, calls } = scriptedModel(SCRIPT);
    const result = await generateText({
      model,
      tools: toAiSdkTools(ctx),
      prepareStep: skillctxPrepareStep(ctx, { onStep: (step) => steps.push(step) }),
      stopWhen: stepCountIs(10),
      messages: [{ role: "user", content: "Please fill the tax form for Ada." }],
    });

    // Transcript.
    expect(result.text).toBe("Done: the form is filled.");
    expect(result.steps.map((step) => step.toolCalls.map((c) => c.toolName))).toEqual([
      ["load_skill"],
      ["read_skill_resource"],
      ["run_skill_script"],
      ["Write"],
      ["unload_skill"],
      [],
    ]);
    expect(calls).toHaveLength(6);

    // The system prompt is the context's, stable across steps, with the catalog and not the body.
    const systems = calls.map((c) => c.prompt[0]);
    for (const system of systems) expect(system).toEqual(systems[0]);
    expect(systems[0]!.content).toContain("You are a form-filling agent.");
    expect(systems[0]!.content).toContain("load the skill with the load_skill tool");
    expect(systems[0]!.content).toContain("<name>pdf-forms</name>");
    expect(systems[0]!.content).not.toContain("Never use the shell");

    // The keyword skill is attached to the user message, in every step.
    for (const c of calls) {
      const userTexts = (c.prompt[1]!.content as Array<{ type: string; text: string }>).map((p) => p.text);
      expect(userTexts[0]).toBe("Please fill the tax form for Ada.");
      expect(userTexts[1]).toContain("A tax form has a payer and a payee.");
    }

    // Activations, as each step reported them.
    expect(steps.map((s) => s.activated)).toEqual([
      [{ skill: "tax-terms", trigger: "keyword", match: "tax form", messageIndex: 0 }],
      [{ skill: "pdf-forms", trigger: "load" }],
      [],
      [],
      [],
      [],
    ]);

    // Tool results the model read.
    const loaded = lastToolResult(calls[1]!);
    expect(loaded.toolName).toBe("load_skill");
    expect(loaded.output.type).toBe("text");
    expect(String(loaded.output.value)).toMatch(/^<skill-loaded name="pdf-forms">\n# Filling PDF forms/);
    const forms = await readFile(path.join(suite.copy.skills, "pdf-forms/references/forms.md"), "utf8");
    expect(lastToolResult(calls[2]!).output).toEqual({ type: "text", value: forms });
    expect(lastToolResult(calls[3]!).output).toEqual({ type: "text", value: "cwd=pdf-forms\nfilled name -> Ada" });

    // Filtering: while pdf-forms is active, Write is not offered, and the call to it never ran.
    const all = ["Read", "Write", "Bash", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"];
    const filtered = ["Read", "Bash", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"];
    expect(calls.map(toolNames)).toEqual([all, filtered, filtered, filtered, filtered, all]);
    const refused = lastToolResult(calls[4]!);
    expect(refused.toolName).toBe("Write");
    expect(refused.output.type).toBe("error-text");
    expect(log).toEqual([]);
    expect(lastToolResult(calls[5]!).output).toEqual({ type: "text", value: 'Skill "pdf-forms" unloaded; all tools are available again.' });
    expect(ctx.activeSkill).toBeUndefined();
  });

  it("with toolFilter refuse, keeps the tool list byte-stable and answers the disallowed call with skillctx's refusal", async () => {
    const log: string[] = [];
    const ctx = await context(log, { toolFilter: "refuse" });
    const { model, calls } = scriptedModel(SCRIPT);
    await generateText({
      model,
      tools: toAiSdkTools(ctx),
      prepareStep: skillctxPrepareStep(ctx),
      stopWhen: stepCountIs(10),
      messages: [{ role: "user", content: "Please fill the tax form for Ada." }],
    });
    const serialized = calls.map((c) => JSON.stringify(c.tools));
    for (const tools of serialized) expect(tools).toBe(serialized[0]);
    expect(lastToolResult(calls[4]!).output).toEqual({
      type: "error-text",
      value:
        'The tool "Write" is not allowed while the skill "pdf-forms" is active (its allowed-tools: Read, run_skill_script, Bash(python3:*)). ' +
        'Use an allowed tool, or call unload_skill { "name": "pdf-forms" } to restore every tool.',
    });
    expect(log).toEqual([]);
  });

  it("passes allowed host tools through to their execute and shows skillctx error results as error text", async () => {
    const log: string[] = [];
    const ctx = await context(log);
    const { model, calls } = scriptedModel([
      call("c1", "Read", { path: "a.txt" }),
      call("c2", "load_skill", { name: "no-such-skill" }),
      say("ok"),
    ]);
    await generateText({ model, tools: toAiSdkTools(ctx), prepareStep: skillctxPrepareStep(ctx), stopWhen: stepCountIs(5), prompt: "go" });
    expect(log).toEqual(['Read {"path":"a.txt"}']);
    expect(lastToolResult(calls[1]!).output).toEqual({ type: "text", value: "file text" });
    expect(lastToolResult(calls[2]!).output).toEqual({
      type: "error-text",
      value: 'Unknown skill "no-such-skill". Available skills: pdf-forms, release-notes, tax-terms, with-resources.',
    });
  });
});
