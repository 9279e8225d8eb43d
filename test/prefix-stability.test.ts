/**
 * A 30-request scripted session through the OpenAI (Chat Completions and Responses) and Anthropic
 * adapters and their official clients, pointed at the local fake provider: request after request, the
 * serialised request of step k+1 begins with the serialised request of step k up to the new messages
 * (the message lists compared element for element, `system` and `tools` the same bytes), and the
 * Anthropic breakpoints sit on that prefix. Prints the share of bytes that each request repeats.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentContext, AgentContextOptions, ContextStep } from "skillctx";
import { put } from "../packages/core/src/testing/temp-dir.js";
import type { FakeProvider, RecordedRequest, ScriptedTurn } from "./helpers/fake-provider.js";
import { useScenario } from "./helpers/agent-scenario.js";
import { breakpoints, useFakeProvider } from "./helpers/adapter-requests.js";
import { withDefaults } from "./helpers/options.js";
import { checkPrefixes, comparableOf } from "./helpers/prefix-compare.js";
import { anthropicMessages, chatCompletions, openaiResponses } from "./helpers/prefix-clients.js";
import type { PrefixClient } from "./helpers/prefix-clients.js";

const REQUESTS = 30;
const INVOICE_TEXT = "An invoice names the seller, the buyer and the tax.";

/**
 * The model's side of the session: file reads (path rules fire on src/db/**), two skills loaded (one
 * with allowed-tools, refused Write included), a resource read, parallel calls, and text answers after
 * which the user writes again (a second keyword skill fires on one of those messages).
 */
function modelTurns(): ScriptedTurn[] {
  const read = (file: string) => ({ name: "Read", input: { path: file } });
  const turns: ScriptedTurn[] = [
    { calls: [read("src/db/schema.ts")] },
    { calls: [{ name: "load_skill", input: { name: "with-resources" } }] },
    { calls: [{ name: "read_skill_resource", input: { name: "with-resources", path: "data/reference.txt" } }] },
    { calls: [read("README.md"), read("docs/guide.md")] },
    { text: "First pass done." },
    { calls: [read("src/invoice.ts")] },
    { calls: [read("src/db/seed.ts")] },
    { calls: [{ name: "load_skill", input: { name: "pdf-forms" } }] },
    { calls: [{ name: "read_skill_resource", input: { name: "pdf-forms", path: "references/forms.md" } }] },
    { calls: [{ name: "Write", input: { path: "out.pdf" } }] },
    { text: "Filled." },
  ];
  for (let i = turns.length; i < REQUESTS; i++)
    turns.push(
      i % 5 === 4 ? { text: `Answer ${i}.` } : { calls: [read(`src/module-${i}.ts`), read(`lib/helper-${i}.ts`)] },
    );
  return turns;
}
/** What the user writes after each text answer, in order. */
const USER_FOLLOW_UPS = [
  "Also check the invoice template.",
  "Thanks. Summarise the tax form rules again.",
  ...Array.from({ length: 10 }, (_, i) => `Follow-up ${i}.`),
];

const scenario = useScenario();
const providers = useFakeProvider();

async function session(
  extra: Pick<AgentContextOptions, "catalog"> = {},
): Promise<{ ctx: AgentContext; provider: FakeProvider }> {
  await put(
    scenario.copy.cwd,
    "invoice-terms.md",
    `---\ndescription: Invoice vocabulary.\ntriggers:\n  - invoice\n---\n${INVOICE_TEXT}\n`,
  );
  const cwd = scenario.copy.cwd;
  // Under the default tools.filter ("refuse"), loading a skill with allowed-tools keeps the tool list.
  const ctx = await scenario.context(
    [],
    withDefaults(
      {
        skills: [
          scenario.copy.skills,
          ...["tax-terms.md", "db-rules.md", "invoice-terms.md"].map((file) => path.join(cwd, file)),
        ],
      },
      extra,
    ),
  );
  const provider = await providers.start(modelTurns());
  return { ctx, provider };
}

/**
 * `REQUESTS` requests through `client` (after a text answer, the next follow-up is the user's turn);
 * checks that there are that many and that each begins with the previous one, and reports the shares as `label`.
 */
async function clientSession(
  label: string,
  client: PrefixClient,
  options?: Parameters<typeof session>[0],
): Promise<{ requests: RecordedRequest[]; steps: ContextStep[]; result: { share: number } }> {
  const { ctx, provider } = await session(options);
  const send = client.connect(provider);
  const followUps = [...USER_FOLLOW_UPS];
  const steps: ContextStep[] = [];
  for (let k = 0; k < REQUESTS; k++) steps.push(await send(ctx, () => followUps.shift()!));
  const requests = provider.requests;
  expect(requests).toHaveLength(REQUESTS);
  return { requests, steps, result: checkPrefixes(label, requests) };
}

describe("30 requests: each request begins with the previous one", () => {
  it("Chat Completions", async () => {
    const { steps, result } = await clientSession("chat", chatCompletions);
    expectSessionFired(steps);
    expect(result.share).toBeGreaterThan(0.8);
  });

  it("Chat Completions with suggestions on and search_skills always offered (issue 26)", async () => {
    // A low suggestion score, so that the scripted user messages get notes: the point is that a note
    // changes neither `system` nor the tools, and stays the same bytes on its message.
    const { requests, steps } = await clientSession("chat+suggestions", chatCompletions, {
      catalog: { search: { tool: "always", suggest: { minScore: 0.5, maxSkills: 2 } } },
    });
    const notes = steps.flatMap((step) => step.attachments.filter((a) => a.text.includes("may apply to this message")));
    expect(notes.length).toBeGreaterThan(0);
    expect((requests[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toContain(
      "search_skills",
    );
  });

  it("Responses API", async () => {
    const { steps } = await clientSession("responses", openaiResponses);
    expectSessionFired(steps);
  });

  it("Anthropic, with the breakpoints on the repeated prefix", async () => {
    const { requests, steps } = await clientSession("anthropic", anthropicMessages);
    expectSessionFired(steps);
    type Messages = Parameters<typeof breakpoints>[0];
    const comparable = requests.map(comparableOf);

    const ephemeral = { type: "ephemeral" };
    for (let k = 0; k < requests.length; k++) {
      const body = requests[k]!.body;
      const messages = body.messages as Messages;
      const marks = breakpoints(messages);
      // System and the last tool, then the message breakpoints: four at most.
      expect((body.system as Array<{ cache_control?: unknown }>).at(-1)!.cache_control).toEqual(ephemeral);
      expect((body.tools as Array<{ cache_control?: unknown }>).at(-1)!.cache_control).toEqual(ephemeral);
      expect(2 + marks.length).toBeLessThanOrEqual(4);
      expect(marks.at(-1)!.message).toBe(messages.length - 1);
      if (k === 0) continue;
      // Every breakpoint of request k sits inside the prefix that request k+1 repeats, and request k+1
      // marks the end of request k again: the cache entry request k wrote is where the next one reads.
      const before = comparable[k - 1]!.messages.length;
      for (const mark of breakpoints(requests[k - 1]!.body.messages as Messages))
        expect(mark.message).toBeLessThan(before);
      expect(marks.map((mark) => mark.message)).toContain(before - 1);
    }
  });
});

// The session is the one scripted: both keyword skills, the path rule once, two loads, a refused Write.
function expectSessionFired(steps: ContextStep[]): void {
  const fired = steps.flatMap((step, k) => step.activated.map((a) => `${k}:${a.skill}:${a.trigger}`));
  expect(fired).toEqual([
    "0:tax-terms:keyword",
    "1:db-rules:path",
    "2:with-resources:load",
    "5:invoice-terms:keyword",
    "8:pdf-forms:load",
  ]);
}
