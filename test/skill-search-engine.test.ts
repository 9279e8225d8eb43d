/**
 * Skill search in a context (issues 26, 33): `search_skills` offered always on option, its weak matches and plain "none",
 * suggestion notes on user messages (frozen, once per skill, only skills the model may load, `system`
 * and tools unchanged), bad `search` options, and no index on steps that do not search.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentContext } from "skillctx";
import type { AgentContextOptions, Message } from "skillctx";
import type { SkillInit } from "@skillctx/core";
import { withDefaults } from "./helpers/options.js";

const user = (content: string): Message => ({ role: "user", content });

function inline(name: string, description: string, content: string, extra: Partial<SkillInit> = {}): SkillInit {
  return {
    name,
    description,
    content,
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "on-demand" },
    ...extra,
  };
}

const SKILLS: SkillInit[] = [
  inline(
    "pdf-forms",
    "Fill in and flatten PDF forms, read their fields, and merge PDF files.",
    "# PDF forms\n\n## Signatures\nCheck whether a document carries a digital signature before changing it.",
  ),
  inline(
    "k8s-debug",
    "Debug Kubernetes workloads: crashing pods, failed deployments, services that do not route.",
    "# Kubernetes\n\n## OOMKilled\nRaise the memory limit or find the leak.",
  ),
  inline(
    "release-notes",
    "Write release notes and a changelog entry from the merged pull requests of a version.",
    "# Release notes\n\n## Semantic versioning\nA major, minor or patch bump.",
  ),
  inline("deploy-prod", "Deploy the service to production with kubernetes rollouts.", "Runs the deploy.", {
    disableModelInvocation: true,
  }),
];

const dirs: string[] = [];
const contexts: AgentContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function context(options: Partial<AgentContextOptions> = {}): Promise<AgentContext> {
  const cwd = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-search-")));
  dirs.push(cwd);
  const ctx = await AgentContext.create({
    cwd,
    skills: SKILLS as never,
    guidance: false,
    ...withDefaults({ sources: { userSkills: false } }, options),
  });
  contexts.push(ctx);
  return ctx;
}

describe("search_skills", () => {
  it("is offered in every step with catalog.search.tool 'always', and system stays what it is without it", async () => {
    const plain = await (await context()).buildContext([]);
    expect(plain.tools.map((t) => t.name)).not.toContain("search_skills");
    const ctx = await context({ catalog: { search: { tool: "always" } } });
    const step = await ctx.buildContext([]);
    expect(step.tools.map((t) => t.name)).toContain("search_skills");
    expect(step.system).toBe(plain.system);
  });

  it("finds a skill by what only its body says, and says plainly when none matches", async () => {
    const ctx = await context({ catalog: { search: { tool: "always", minScore: 0.5 } } });
    const found = await ctx.callTool("search_skills", { query: "the container got OOMKilled" });
    // One word of a short body: found, and marked a weak match (its score is under DEFAULT_CONFIDENT_SCORE).
    expect(found.content.split("\n")[1]).toMatch(/^- k8s-debug \(weak match\): /);
    // A weak match (one word of a body) is still listed, marked, and the model is told no skill clearly matches.
    const weak = await ctx.callTool("search_skills", { query: "raise my allowance" });
    expect(weak.content).toBe(
      [
        'No skill clearly matches "raise my allowance"; the closest, best first (weak matches):',
        "- k8s-debug (weak match): Debug Kubernetes workloads: crashing pods, failed deployments, services that do not route.",
        "Load one with the load_skill tool only if its description fits the task.",
      ].join("\n"),
    );
    const none = await ctx.callTool("search_skills", { query: "book a table at an italian restaurant" });
    expect(none).toEqual({
      content: 'No skill matches "book a table at an italian restaurant"; the catalog lists them all.',
    });
  });

  it("follows the skill set: after setSkills the index has the new skills and not the removed ones", async () => {
    const ctx = await context({ catalog: { search: { tool: "always", minScore: 0.5 } } });
    expect((await ctx.callTool("search_skills", { query: "kubernetes pod crashing" })).content).toContain("k8s-debug");
    await ctx.setSkills([
      inline(
        "regex-helper",
        "Write, explain and test regular expressions.",
        "## Catastrophic backtracking\nNested quantifiers.",
      ),
      SKILLS[0]!,
    ] as never);
    const gone = await ctx.callTool("search_skills", { query: "kubernetes pod crashing" });
    expect(gone.content).not.toContain("k8s-debug");
    const found = await ctx.callTool("search_skills", { query: "this regex hangs: catastrophic backtracking" });
    expect(found.content.split("\n")[1]).toMatch(/^- regex-helper: /);
  });

  it("never returns a skill the model may not load", async () => {
    const ctx = await context({ catalog: { search: { tool: "always", minScore: 0 } } });
    const found = await ctx.callTool("search_skills", { query: "deploy the service to production" });
    expect(found.content).not.toContain("deploy-prod");
  });

  it("refuses bad search options with INVALID_OPTIONS", async () => {
    for (const search of [{ tool: "sometimes" }, { minScore: -1 }, { suggest: { maxSkills: 0 } }, { embed: 3 }, 5]) {
      await expect(context({ catalog: { search: search as never } })).rejects.toMatchObject({
        code: "INVALID_OPTIONS",
      });
    }
  });
});

describe("suggestions on user messages", () => {
  const suggest = { suggest: { minScore: 0.5, maxSkills: 2 } };

  it("attaches one frozen note naming the matching skills and the words that matched", async () => {
    const plainCtx = await context();
    const ctx = await context({ catalog: { search: suggest } });
    const messages = [user("please fill out this pdf form and merge the files")];
    const plain = await plainCtx.buildContext(messages);
    const step = await ctx.buildContext(messages);
    expect(step.system).toBe(plain.system);
    expect(step.tools).toEqual(plain.tools);
    expect(step.attachments).toHaveLength(1);
    const note = step.attachments[0]!;
    expect(note.messageIndex).toBe(0);
    expect(note.text).toMatch(
      /^\[skillctx: a skill that may apply to this message: pdf-forms \(matched: [a-z, ]*pdf[a-z, ]*\)/,
    );
    expect(note.text).toContain("load_skill");
    // Frozen: the next step, with a new message, carries the same bytes on the first message.
    const next = await ctx.buildContext([...messages, { role: "assistant", content: "ok" }, user("thanks")]);
    expect(next.attachments[0]).toEqual(note);
    expect(next.system).toBe(step.system);
    expect(next.tools).toEqual(step.tools);
  });

  it("suggests a skill once per conversation, never one the model may not invoke, and nothing for other requests", async () => {
    const ctx = await context({ catalog: { search: suggest } });
    const history: Message[] = [user("the kubernetes pod keeps crashing")];
    const first = await ctx.buildContext(history);
    expect(first.attachments.map((a) => a.text)).toEqual([expect.stringContaining("k8s-debug")]);
    history.push({ role: "assistant", content: "looking" }, user("another kubernetes pod is crashing now"));
    const second = await ctx.buildContext(history);
    expect(second.attachments).toHaveLength(1);
    history.push({ role: "assistant", content: "done" }, user("deploy the service to production"));
    const third = await ctx.buildContext(history);
    expect(third.attachments.every((a) => !a.text.includes("deploy-prod"))).toBe(true);
    history.push({ role: "assistant", content: "ok" }, user("what is the weather in Oslo"));
    expect((await ctx.buildContext(history)).attachments).toHaveLength(third.attachments.length);
    const state = JSON.stringify(ctx.state);
    expect(state).toContain('"trigger":"suggest"');
  });

  it("is off by default: no note, and the bodies of scanned skills are never read by a step", async () => {
    const cwd = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-search-lazy-")));
    dirs.push(cwd);
    const folder = path.join(cwd, ".agents/skills/pdf-tools");
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "SKILL.md"), "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\nBody.\n");
    const ctx = await AgentContext.create({ cwd, guidance: false, sources: { userSkills: false } });
    contexts.push(ctx);
    const step = await ctx.buildContext([user("fill this pdf form")]);
    expect(step.attachments).toEqual([]);
    const { isContentLoaded } = await import("../packages/core/src/lazy-content.js");
    expect(isContentLoaded(ctx.skills.find((s) => s.name === "pdf-tools")!)).toBe(false);
  });
});
