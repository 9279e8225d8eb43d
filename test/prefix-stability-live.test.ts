/**
 * The prefix a provider caches, under the defaults, through a session that changes things: 30 requests
 * through the official OpenAI (Chat Completions, Responses) and Anthropic clients pointed at the local
 * fake provider, with hot reload on (a skill edited and one added mid-session), a nested skill folder
 * revealed by a tool call, a skill with `allowed-tools` loaded (and a call outside them refused), and a
 * resume from `ctx.state` in a new context after a skill changed while no context ran. Every request
 * must begin with the previous one: `system` and `tools` the same bytes from the first request to the
 * last, the message list element for element (issue 37, "a prefix that survives").
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { fromOpenAIInput, fromOpenAIMessages, runOpenAIResponsesCalls, runOpenAIToolCalls } from "skillctx/openai";
import { toOpenAIChatRequest, toOpenAIResponsesRequest } from "skillctx/openai";
import type { OpenAIResponsesItem } from "skillctx/openai";
import { fromAnthropicMessages, runAnthropicToolUses, toAnthropicRequest } from "skillctx/anthropic";
import type { AgentContext, ContextStep } from "skillctx";
import { put } from "../packages/core/src/testing/temp-dir.js";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import type { FakeProvider, ScriptedTurn } from "./helpers/fake-provider.js";
import { useScenario } from "./helpers/agent-scenario.js";
import { useFakeProvider, withoutCacheControl } from "./helpers/adapter-requests.js";
import type { breakpoints } from "./helpers/adapter-requests.js";
import { expectPrefixes, rawPrefixShare, report, serialise } from "./helpers/prefix-compare.js";
import { describeWithTool } from "./helpers/tools-present.js";

const { default: OpenAI } = skillctxDependency<typeof import("openai")>("openai");
const { default: Anthropic } = skillctxDependency<typeof import("@anthropic-ai/sdk")>("@anthropic-ai/sdk");
type ChatMessage = import("openai").OpenAI.Chat.ChatCompletionMessageParam;
type MessageParam = import("@anthropic-ai/sdk").Anthropic.MessageParam;

const REQUESTS = 30;
/** Before this request, a skill is edited and one added, and the step waits for the watcher to see them. */
const HOT_RELOAD_AT = 12;
/** Before this request, the context is saved, closed, a skill is added, and a new context resumes. */
const RESUME_AT = 20;
const EDITED = "Extract tables from a PDF, edited mid-session.";
const ADDED = "Summarise release notes, added mid-session.";
const AWAY = "Check invoices, added while no context ran.";

const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nThe ${name} body.\n`;

function modelTurns(): ScriptedTurn[] {
  const read = (file: string) => ({ name: "Read", input: { path: file } });
  const turns: ScriptedTurn[] = [
    { calls: [read("src/db/schema.ts")] },
    { calls: [{ name: "load_skill", input: { name: "pdf-forms" } }] }, // allowed-tools: Read run_skill_script Bash(python3:*)
    { calls: [{ name: "Write", input: { path: "out.pdf" } }] }, // refused, tools unchanged
    { calls: [read("packages/pay/src/charge.ts")] }, // reveals packages/pay/.claude/skills
    { calls: [{ name: "load_skill", input: { name: "pay-rules" } }] },
    { text: "First pass done." },
  ];
  for (let i = turns.length; i < REQUESTS; i++)
    turns.push(i % 4 === 3 ? { text: `Answer ${i}.` } : { calls: [read(`src/module-${i}.ts`)] });
  return turns;
}

const scenario = useScenario();
const providers = useFakeProvider();

/** The scenario's project as a git repository with a package that holds its own skill folder. */
async function prepare(): Promise<void> {
  const cwd = scenario.copy.cwd;
  await put(cwd, "packages/pay/.claude/skills/pay-rules/SKILL.md", skillMd("pay-rules", "Rules for the pay package."));
  await put(cwd, "packages/pay/src/charge.ts", "export {};\n");
  execFileSync("git", ["init", "--quiet", cwd], { stdio: "ignore" });
}

interface Live {
  ctx: AgentContext;
  /** Resolves at the next `skills.stale` event. */
  stale(): Promise<void>;
}

/** A context with the defaults plus hot reload (`sources.watch`), resumed from `state` when given. */
async function open(state?: unknown): Promise<Live> {
  let waiting: (() => void) | undefined;
  const ctx = await scenario.context([], {
    sources: { watch: { debounceMs: 20 } },
    telemetry: {
      onEvent: (event) => {
        if (event.type === "skills.stale") waiting?.();
      },
    },
    ...(state !== undefined && { conversation: { state: state as never } }),
  });
  return {
    ctx,
    stale: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the watcher never saw the change")), 10_000);
        waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
  };
}

/**
 * Drives REQUESTS steps; `send` makes one request from the step and reports whether the model called
 * tools (else the user writes again). Makes the mid-session changes and the resume.
 */
async function drive(
  send: (ctx: AgentContext, followUp: () => string) => Promise<ContextStep>,
): Promise<ContextStep[]> {
  const skills = scenario.copy.skills;
  let live = await open();
  const steps: ContextStep[] = [];
  let n = 0;
  for (let k = 0; k < REQUESTS; k++) {
    if (k === HOT_RELOAD_AT) {
      const seen = live.stale();
      await writeFile(path.join(skills, "pdf-forms/SKILL.md"), pdfForms(EDITED));
      await put(skills, "late-notes/SKILL.md", skillMd("late-notes", ADDED));
      await seen;
    }
    if (k === RESUME_AT) {
      const saved = JSON.parse(JSON.stringify(live.ctx.state));
      await live.ctx.close();
      await put(skills, "invoice-check/SKILL.md", skillMd("invoice-check", AWAY));
      live = await open(saved);
    }
    steps.push(await send(live.ctx, () => `Follow-up ${n++}.`));
  }
  return steps;
}

let pdfFormsText = "";
const pdfForms = (description: string) => pdfFormsText.replace(/^description: .*$/m, `description: ${description}`);

/** What the session must have done: the load with allowed-tools, the nested reveal, both notes. */
function expectSessionChanged(steps: ContextStep[]): void {
  const texts = steps.flatMap((step) => step.attachments.map((a) => a.text));
  expect(texts.some((t) => t.startsWith("<nested_skills") && t.includes("pay-rules"))).toBe(true);
  const updates = texts.filter((t) => t.includes("<skills_update>"));
  expect(updates.some((t) => t.includes(EDITED) && t.includes(ADDED))).toBe(true);
  expect(updates.some((t) => t.includes(AWAY))).toBe(true);
  expect(steps[0]!.system).not.toContain(ADDED);
  expect(steps.at(-1)!.system).toBe(steps[0]!.system);
  expect(steps.flatMap((s) => s.activated.map((a) => `${a.skill}:${a.trigger}`))).toEqual(
    expect.arrayContaining(["pdf-forms:load", "pay-rules:load"]),
  );
}

async function started(): Promise<FakeProvider> {
  await prepare();
  pdfFormsText = await import("node:fs/promises").then((fs) =>
    fs.readFile(path.join(scenario.copy.skills, "pdf-forms/SKILL.md"), "utf8"),
  );
  return providers.start(modelTurns());
}

describeWithTool("git")("the cached prefix survives hot reload, a nested reveal, allowed-tools and a resume", () => {
  it("Chat Completions", async () => {
    const provider = await started();
    const client = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
    const history: ChatMessage[] = [{ role: "user", content: "Please fill the tax form for Ada." }];
    const steps = await drive(async (ctx, followUp) => {
      const step = await ctx.buildContext(fromOpenAIMessages(history));
      const message = (await client.chat.completions.create({ model: "gpt-test", ...toOpenAIChatRequest(step) }))
        .choices[0]!.message;
      history.push(message);
      if (message.tool_calls !== undefined && message.tool_calls.length > 0)
        history.push(...(await runOpenAIToolCalls(ctx, message.tool_calls)));
      else history.push({ role: "user", content: followUp() });
      return step;
    });
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    const result = expectPrefixes(
      requests.map((r) => {
        const [system, ...messages] = r.body.messages as unknown[];
        return { fixed: JSON.stringify([system, r.body.tools]), messages: serialise(messages) };
      }),
    );
    report("chat, live", requests, result, rawPrefixShare(requests));
    expectSessionChanged(steps);
  });

  it("Responses API", async () => {
    const provider = await started();
    const client = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
    const items: OpenAIResponsesItem[] = [{ role: "user", content: "Please fill the tax form for Ada." }];
    const steps = await drive(async (ctx, followUp) => {
      const step = await ctx.buildContext(fromOpenAIInput(items));
      const response = await client.responses.create({ model: "gpt-test", ...toOpenAIResponsesRequest(step) });
      const outputs = await runOpenAIResponsesCalls(ctx, response.output);
      items.push(...response.output, ...outputs);
      if (outputs.length === 0) items.push({ role: "user", content: followUp() });
      return step;
    });
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    const result = expectPrefixes(
      requests.map((r) => ({
        fixed: JSON.stringify([r.body.instructions, r.body.tools]),
        messages: serialise(r.body.input as unknown[]),
      })),
    );
    report("responses, live", requests, result, rawPrefixShare(requests));
    expectSessionChanged(steps);
  });

  it("Anthropic", async () => {
    const provider = await started();
    const client = new Anthropic({ baseURL: provider.url, apiKey: "test", maxRetries: 0 });
    const history: MessageParam[] = [{ role: "user", content: "Please fill the tax form for Ada." }];
    const steps = await drive(async (ctx, followUp) => {
      const step = await ctx.buildContext(fromAnthropicMessages(history));
      const response = await client.messages.create({
        model: "claude-test",
        max_tokens: 1024,
        ...toAnthropicRequest(step),
      });
      history.push({ role: "assistant", content: response.content });
      if (response.stop_reason === "tool_use")
        history.push({ role: "user", content: await runAnthropicToolUses(ctx, response.content) });
      else history.push({ role: "user", content: followUp() });
      return step;
    });
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    type Messages = Parameters<typeof breakpoints>[0];
    const result = expectPrefixes(
      requests.map((r) => ({
        fixed: JSON.stringify([r.body.system, r.body.tools]),
        messages: serialise(withoutCacheControl(r.body.messages as Messages)),
      })),
    );
    report("anthropic, live", requests, result, rawPrefixShare(requests));
    expectSessionChanged(steps);
  });
});
