/**
 * The session of the live prefix-stability tests (issue 37, "a prefix that survives"), shared by the
 * official-client test (`prefix-stability-live.test.ts`) and the framework one
 * (`prefix-stability-live-frameworks.test.ts`): the scripted model turns, a git project with a nested
 * skill folder, a context with hot reload, and a driver that makes the mid-session changes (a skill edited
 * and one added at request 12, a save / close / resume with a skill added at request 20).
 */
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import type { AgentContext, ContextStep } from "skillctx";
import { put } from "../../packages/core/src/testing/temp-dir.js";
import type { FakeProvider, ScriptedTurn } from "./fake-provider.js";
import { useScenario } from "./agent-scenario.js";
import { useFakeProvider } from "./adapter-requests.js";

export const REQUESTS = 30;
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
    pdfFormsText = await readFile(path.join(scenario.copy.skills, "pdf-forms/SKILL.md"), "utf8");
    return providers.start(modelTurns());
  }

  return { drive, started, expectSessionChanged };
}
