/**
 * The session of the live prefix-stability tests (issue 37, "a prefix that survives"), one driver for
 * every client (`prefix-stability-live.test.ts`: the official OpenAI and Anthropic clients;
 * `prefix-stability-live-frameworks.test.ts`: the AI SDK, OpenAI Agents JS and LangChain): the scripted
 * model turns, a git project with a nested skill folder, a context with hot reload, the mid-session
 * changes (a skill edited and one added at request 12; at request 20 a save / close, a skill edited and
 * one added while no context runs, and a resume from the saved `ctx.state`), and the checks. A client
 * brings only its `send` (test/helpers/prefix-clients.ts).
 */
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import type { AgentContext, ContextStep } from "skillctx";
import { put } from "../../packages/core/src/testing/temp-dir.js";
import type { FakeProvider, RecordedRequest, ScriptedTurn } from "./fake-provider.js";
import { useScenario } from "./agent-scenario.js";
import { useFakeProvider } from "./adapter-requests.js";
import { checkPrefixes } from "./prefix-compare.js";
import type { PrefixClient, Send } from "./prefix-clients.js";

export const REQUESTS = 30;
/** Before this request, a skill is edited and one added, and the step waits for the watcher to see them. */
const HOT_RELOAD_AT = 12;
/** Before this request, the context is saved and closed, a skill is added and one edited, and a new context resumes. */
const RESUME_AT = 20;
const EDITED = "Extract tables from a PDF, edited mid-session.";
const ADDED = "Summarise release notes, added mid-session.";
const AWAY = "Check invoices, added while no context ran.";
const AWAY_EDIT = "Summarise release notes, edited while no context ran.";

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

/** The names of the tools the scripted model calls over the session, in order. */
export const scriptedCalls = (): string[] => modelTurns().flatMap((turn) => (turn.calls ?? []).map((c) => c.name));

/** For a test file: the scenario and a fake provider, both reset after each test. */
export function usePrefixLiveSession() {
  const scenario = useScenario();
  const providers = useFakeProvider();

  /** The scenario's project as a git repository with a package that holds its own skill folder. */
  async function prepare(): Promise<void> {
    const cwd = scenario.copy.cwd;
    await put(
      cwd,
      "packages/pay/.claude/skills/pay-rules/SKILL.md",
      skillMd("pay-rules", "Rules for the pay package."),
    );
    await put(cwd, "packages/pay/src/charge.ts", "export {};\n");
    execFileSync("git", ["init", "--quiet", cwd], { stdio: "ignore" });
  }

  interface Live {
    ctx: AgentContext;
    /** Resolves at the next `skills.stale` event. */
    stale(): Promise<void>;
    /**
     * Resolves once no `skills.stale` event has come for `ms`: the watcher may report one write in two
     * batches (a file created, then its content), and a step between them would see half the change.
     */
    quiet(ms: number): Promise<void>;
  }

  /** A context with the defaults plus hot reload (`sources.watch`), resumed from `state` when given. */
  /** Sees each context the driver opens (the first, and the resumed one), before its first step. */
  let observe: ((ctx: AgentContext) => void) | undefined;

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
    observe?.(ctx);
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
      quiet: async (ms) => {
        for (;;) {
          const more = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => {
              waiting = undefined;
              resolve(false);
            }, ms);
            waiting = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          if (!more) return;
        }
      },
    };
  }

  /**
   * Drives REQUESTS steps; `send` makes one request from the step and reports whether the model called
   * tools (else the user writes again). Makes the mid-session changes and the resume.
   */
  async function drive(send: Send): Promise<ContextStep[]> {
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
        await live.quiet(300);
      }
      if (k === RESUME_AT) {
        const saved = JSON.parse(JSON.stringify(live.ctx.state));
        await live.ctx.close();
        await put(skills, "invoice-check/SKILL.md", skillMd("invoice-check", AWAY));
        await writeFile(path.join(skills, "late-notes/SKILL.md"), skillMd("late-notes", AWAY_EDIT));
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
    expect(updates.some((t) => t.includes(AWAY) && t.includes(AWAY_EDIT))).toBe(true);
    expect(steps[0]!.system).not.toContain(ADDED);
    expect(steps.at(-1)!.system).toBe(steps[0]!.system);
    expect(steps.flatMap((s) => s.activated.map((a) => `${a.skill}:${a.trigger}`))).toEqual(
      expect.arrayContaining(["pdf-forms:load", "pay-rules:load"]),
    );
  }

  async function started(): Promise<FakeProvider> {
    await prepare();
    pdfFormsText = await readFile(path.join(scenario.copy.skills, "pdf-forms/SKILL.md"), "utf8");
    return providers.start(modelTurns());
  }

  /**
   * The whole session through `client`: REQUESTS requests, all to the client's API, each beginning with
   * the previous one (system and tools the same bytes), and the session's changes seen by the model.
   * `watch` sees each context the session opens, before its first step.
   */
  async function run(
    label: string,
    client: PrefixClient,
    watch?: (ctx: AgentContext) => void,
  ): Promise<{ steps: ContextStep[]; requests: RecordedRequest[]; share: number; folders: string[] }> {
    observe = watch;
    const provider = await started();
    const steps = await drive(client.connect(provider));
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    expect(requests.every((r) => r.api === client.api)).toBe(true);
    const { share } = checkPrefixes(`${label}, live`, requests);
    expectSessionChanged(steps);
    return { steps, requests, share, folders: [scenario.copy.cwd, scenario.copy.skills] };
  }

  return { run };
}
