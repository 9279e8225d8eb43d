/**
 * `execute_skill` end to end in the real AI SDK: the parent runs through `createAiSdkLoop`, the
 * sub-agent through `aiSdkSubAgent`, each on its own scripted MockLanguageModelV3. What each model was
 * sent, the answer the parent reads, the state the sub-agent's tools leave and the abort are asserted.
 */
import { describe, expect, it } from "vitest";
import { z } from "./helpers/zod.js";
import { defineSkill } from "skillctx";
import type { SkillctxEvent } from "skillctx";
import { aiSdkSubAgent, createAiSdkLoop } from "skillctx/ai-sdk";
import { useEngineFixture } from "./helpers/engine-fixture.js";
import { scriptedModel, systemOf, toolNames, toolResults, userTexts } from "./helpers/scripted-model.js";
import { skillctxDependency } from "./helpers/tools-fixture.js";

const ai = skillctxDependency<typeof import("ai")>("ai");
const fixture = useEngineFixture();

const calculator = () =>
  defineSkill({
    name: "calculator",
    description: "Adds numbers and keeps a history.",
    instructions: "Add numbers with the add tool. Answer with the sum only.",
    model: "child-model",
    tools: {
      add: {
        description: "Add two numbers.",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }: { a: number; b: number }, { state }: any) => {
          state.update((s: { history: string[] }) => ({ history: [...s.history, `${a}+${b}=${a + b}`] }));
          return String(a + b);
        },
      },
    },
    state: { schema: z.object({ history: z.array(z.string()) }), initial: { history: [] } },
  });

async function parentRun(
  ctx: Awaited<ReturnType<typeof fixture.context>>,
  model: unknown,
  options: { abortSignal?: AbortSignal } = {},
) {
  const loop = createAiSdkLoop(ctx);
  return ai.generateText({
    model: model as never,
    ...loop,
    stopWhen: ai.stepCountIs(6),
    messages: [{ role: "user", content: "What is 2 + 3?" }],
    ...options,
  });
}

describe("execute_skill: a skill run as a sub-agent", () => {
  it("runs the skill with its own model and tools; the answer returns to the parent; state deltas reach the parent", async () => {
    const repo = await fixture.repo();
    const parent = scriptedModel(
      [{ calls: [["execute_skill", { name: "calculator", request: "Add 2 and 3." }]] }, { text: "It is 5." }],
      "p",
    );
    // Two tool calls in one step run in parallel: both state changes must land (each takes the turn).
    const child = scriptedModel(
      [
        {
          calls: [
            ["add", { a: 2, b: 3 }],
            ["add", { a: 1, b: 1 }],
          ],
        },
        { text: "5" },
      ],
      "c",
    );
    const asked: (string | undefined)[] = [];
    const events: SkillctxEvent[] = [];
    const ctx = await fixture.context({
      cwd: repo.dir,
      skills: [calculator()],
      telemetry: {
        onEvent: (event) => events.push(event),
      },
      subAgents: {
        run: aiSdkSubAgent((id) => (asked.push(id), child.model)),
      },
    });

    const result = await parentRun(ctx, parent.model);

    expect(result.text).toBe("It is 5.");
    expect(asked).toEqual(["child-model"]);
    expect(toolNames(parent.calls[0]!)).toContain("execute_skill");
    // The parent reads the sub-agent's final text as the tool result.
    expect(toolResults(parent.calls[1]!)).toEqual([{ toolName: "execute_skill", type: "text", value: "5" }]);
    // The child: the skill's body in its system prompt, the request as its first user message, its own tools only.
    const first = child.calls[0]!;
    expect(systemOf(first)).toContain('sub-agent running the skill "calculator"');
    expect(systemOf(first)).toContain("Add numbers with the add tool.");
    expect(userTexts(first)).toEqual(["Add 2 and 3."]);
    expect(toolNames(first)).toEqual(["add"]);
    expect(toolResults(child.calls[1]!).map((r) => r.value)).toEqual(["5", "2"]);
    // The parent never saw the sub-agent's tools or body.
    expect(JSON.stringify(parent.calls[1]!.prompt)).not.toContain("Add numbers with the add tool");
    // State made inside flows to the parent's state and events.
    expect(ctx.skillState("calculator")).toEqual({ history: expect.arrayContaining(["2+3=5", "1+1=2"]) });
    expect((ctx.skillState("calculator") as { history: string[] }).history).toHaveLength(2);
    const deltas = events.filter((e) => e.type === "state.delta");
    expect(deltas).toHaveLength(2);
    expect(deltas[0]).toMatchObject({ namespace: "calculator", skill: "calculator" });
    expect(ctx.state.skillStates?.["calculator"]).toEqual(ctx.skillState("calculator"));
  });

  it("is cancelled by the parent's abort: the sub-agent's model call sees the abort and the parent's run rejects", async () => {
    const repo = await fixture.repo();
    const parent = scriptedModel(
      [{ calls: [["execute_skill", { name: "calculator", request: "Add 2 and 3." }]] }, { text: "unreachable" }],
      "p",
    );
    const controller = new AbortController();
    let childSignal: AbortSignal | undefined;
    const child = scriptedModel(() => "hold", "c");
    const ctx = await fixture.context({
      cwd: repo.dir,
      skills: [calculator()],
      subAgents: {
        run: aiSdkSubAgent(() => child.model),
      },
    });
    const started = new Promise<void>((resolve) => {
      const original = child.model.doGenerate.bind(child.model);
      child.model.doGenerate = (options) => {
        childSignal = options.abortSignal;
        resolve();
        return original(options);
      };
    });

    const run = parentRun(ctx, parent.model, { abortSignal: controller.signal });
    await started;
    controller.abort(new Error("user pressed stop"));

    await expect(run).rejects.toThrow();
    expect(childSignal?.aborted).toBe(true);
    expect(parent.calls).toHaveLength(1);
    // The context goes on: a later call works (the aborted one left no turn held).
    expect(ctx.skillState("calculator")).toEqual({ history: [] });
    await expect(ctx.callTool("unload_skill", { name: "calculator" })).resolves.toMatchObject({
      content: expect.any(String),
    });
  });

  it("a sub-agent that reaches its step limit is an error result the parent reads; the conversation continues", async () => {
    const repo = await fixture.repo();
    const parent = scriptedModel(
      [
        { calls: [["execute_skill", { name: "calculator", request: "Keep adding." }]] },
        { text: "The sub-agent did not finish." },
      ],
      "p",
    );
    const child = scriptedModel(() => ({ calls: [["add", { a: 1, b: 1 }]] }), "c");
    const ctx = await fixture.context({
      cwd: repo.dir,
      skills: [calculator()],
      subAgents: {
        maxSteps: 3,
        run: aiSdkSubAgent(() => child.model),
      },
    });

    const result = await parentRun(ctx, parent.model);

    expect(child.calls).toHaveLength(3);
    const [answer] = toolResults(parent.calls[1]!);
    expect(answer).toMatchObject({ toolName: "execute_skill", type: "error-text" });
    expect(answer!.value).toContain("step limit (3 model calls)");
    expect(result.text).toBe("The sub-agent did not finish.");
    // The calls it made before the limit still count.
    expect((ctx.skillState("calculator") as { history: string[] }).history).toHaveLength(3);
  });
});

describe("execute_skill: offer, tools and errors", () => {
  const echoRunner = (seen: unknown[]) => async (request: any) => {
    seen.push(request);
    return { text: `done: ${request.messages[0].content}`, messages: request.messages };
  };

  it("is offered only with subAgents.run", async () => {
    const repo = await fixture.repo();
    const without = await fixture.context({ cwd: repo.dir, skills: [calculator()] });
    expect(without.listTools().map((t) => t.name)).not.toContain("execute_skill");
    const withIt = await fixture.context({ cwd: repo.dir, skills: [calculator()], subAgents: { run: echoRunner([]) } });
    // No skill here has a scripts/ folder: run_skill_script is not offered (issue 37).
    expect(withIt.listTools().map((t) => t.name)).toEqual([
      "load_skill",
      "read_skill_resource",
      "unload_skill",
      "execute_skill",
    ]);
    const strands = await fixture.context({
      cwd: repo.dir,
      skills: [calculator()],
      tools: {
        toolset: "strands",
      },
      subAgents: {
        run: echoRunner([]),
      },
    });
    expect(strands.listTools().map((t) => t.name)).toContain("execute_skill");
  });

  it("gives the sub-agent the host tools its allowed-tools permit, never execute_skill; the model from subAgents.model", async () => {
    const repo = await fixture.repo();
    const seen: any[] = [];
    const ran: string[] = [];
    const tool = (name: string) => ({ name, description: name, execute: () => (ran.push(name), `${name} ok`) });
    const ctx = await fixture.context({
      cwd: repo.dir,
      tools: {
        host: [tool("Read"), tool("Write")],
      },
      skills: [
        defineSkill({
          name: "reader",
          description: "Reads.",
          instructions: "Read things.",
          allowedTools: ["Read", "execute_skill"],
        }),
        defineSkill({ name: "plain", description: "Plain.", instructions: "Nothing." }),
      ],
      subAgents: {
        model: "default-model",
        run: echoRunner(seen),
      },
    });
    const result = await ctx.callTool("execute_skill", { name: "reader", request: "Read a.txt" });
    expect(result).toEqual({ content: "done: Read a.txt" });
    await ctx.callTool("execute_skill", { name: "plain", request: "go" });
    expect(seen[0].tools.map((t: any) => t.name)).toEqual(["Read"]);
    expect(seen[0].model).toBe("default-model");
    expect(seen[0].maxSteps).toBe(10);
    expect(seen[0].signal).toBeInstanceOf(AbortSignal);
    expect(seen[1].tools).toEqual([]);
    await expect(seen[0].tools[0].execute({}, { signal: new AbortController().signal })).resolves.toEqual({
      content: "Read ok",
    });
    expect(ran).toEqual(["Read"]);
  });

  it("answers bad calls and failed runs with clear error results", async () => {
    const repo = await fixture.repo();
    let mode = "throw";
    const ctx = await fixture.context({
      cwd: repo.dir,
      skills: [calculator()],
      subAgents: {
        run: async () => {
          if (mode === "throw") throw new Error("model unreachable");
          if (mode === "empty") return { text: "   ", messages: [] };
          return { nothing: true } as never;
        },
      },
    });
    await expect(ctx.callTool("execute_skill", { name: "calculator", request: "x" })).resolves.toEqual({
      content: 'The sub-agent running "calculator" failed: model unreachable',
      isError: true,
    });
    mode = "empty";
    expect((await ctx.callTool("execute_skill", { name: "calculator", request: "x" })).content).toContain(
      "finished without an answer",
    );
    mode = "junk";
    expect((await ctx.callTool("execute_skill", { name: "calculator", request: "x" })).content).toContain(
      "returned no answer",
    );
    const unknown = await ctx.callTool("execute_skill", { name: "calculater", request: "x" });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toContain("Available skills: calculator");
    expect((await ctx.callTool("execute_skill", { name: "calculator" })).content).toContain(
      "Invalid arguments for execute_skill: request",
    );
  });

  it("refuses bad options at create", async () => {
    const repo = await fixture.repo();
    await expect(fixture.context({ cwd: repo.dir, subAgents: { run: "no" as never } })).rejects.toMatchObject({
      code: "INVALID_OPTIONS",
    });
    await expect(
      fixture.context({
        cwd: repo.dir,
        subAgents: {
          run: async () => ({ text: "", messages: [] }),
          maxSteps: 0,
        },
      }),
    ).rejects.toMatchObject({
      code: "INVALID_OPTIONS",
    });
  });
});

describe("context: fork skills (Claude Code)", () => {
  const FORK = [
    "---",
    "name: deep-research",
    "description: Research a topic in the repository.",
    "context: fork",
    "---",
    "Research $ARGUMENTS thoroughly and report the files involved.",
    "",
  ].join("\n");

  it("load_skill points to execute_skill; execute_skill sends the body, arguments put in, as the sub-agent's task with every host tool", async () => {
    const repo = await fixture.repo({ ".claude/skills/deep-research/SKILL.md": FORK });
    const seen: any[] = [];
    const ctx = await fixture.context({
      cwd: repo.dir,
      tools: {
        host: [{ name: "Grep", description: "grep" }],
      },
      subAgents: {
        run: async (request) => (seen.push(request), { text: "auth lives in src/auth.ts", messages: [] }),
      },
    });
    const loaded = await ctx.callTool("load_skill", { name: "deep-research" });
    expect(loaded.isError).toBeUndefined();
    expect(loaded.content).toContain('execute_skill { "name": "deep-research"');
    expect(loaded.content).not.toContain("Research");
    expect(ctx.activeSkill).toBeUndefined();

    const result = await ctx.callTool("execute_skill", { name: "deep-research", request: "the auth flow" });
    expect(result).toEqual({ content: "auth lives in src/auth.ts" });
    expect(seen[0].messages).toEqual([
      { role: "user", content: "Research the auth flow thoroughly and report the files involved." },
    ]);
    expect(seen[0].system).not.toContain("Research");
    expect(seen[0].tools.map((t: any) => t.name)).toEqual(["read_skill_resource", "Grep"]);
  });

  it("without subAgents.run a fork skill loads inline as before", async () => {
    const repo = await fixture.repo({ ".claude/skills/deep-research/SKILL.md": FORK });
    const ctx = await fixture.context({ cwd: repo.dir });
    const loaded = await ctx.callTool("load_skill", { name: "deep-research" });
    expect(loaded.content).toContain("Research $ARGUMENTS thoroughly");
    expect(ctx.activeSkill).toBe("deep-research");
  });
});
