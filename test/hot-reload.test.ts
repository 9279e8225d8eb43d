import { mkdir, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillCache } from "@skillctx/core";
import type { AgentContext, ContextStep, EventOf, Message } from "skillctx";

type SkillsChangedEvent = EventOf<"skills.changed">;
import { HotReload } from "../packages/engine/src/engine/hot-reload.js";
import { PROJECT_WATCH_TARGETS, watchRoots } from "../packages/engine/src/engine/watch-targets.js";
import { EventBus } from "../packages/engine/src/events/event-bus.js";
import {
  CLAUDE_RULES_DIR,
  COPILOT_RULES_DIR,
  CURSOR_RULES_DIR,
  FILE_KINDS,
  WINDSURF_RULES_DIR,
} from "../packages/compat/src/formats.js";
import { user, useEngineFixture } from "./helpers/engine-fixture.js";

const skillMd = (name: string, description: string, body = `The ${name} body.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const assistant = (content: string): Message => ({ role: "assistant", content });
const NOTE = "<skills_update>";

/** Builds steps (growing the conversation by one exchange each time) until `done` holds; bounded. */
async function stepUntil(
  ctx: AgentContext,
  messages: Message[],
  done: (step: ContextStep) => boolean,
): Promise<ContextStep> {
  const deadline = Date.now() + 15_000;
  for (let turn = 0; ; turn++) {
    const step = await ctx.buildContext(messages);
    if (done(step)) return step;
    if (Date.now() > deadline) throw new Error("the change never showed up");
    await new Promise((resolve) => setTimeout(resolve, 25));
    messages.push(assistant(`ok ${turn}`), user(`next ${turn}`));
  }
}

const noted = (step: ContextStep) => step.attachments.some((a) => a.text.includes(NOTE));
const noteText = (step: ContextStep) => step.attachments.find((a) => a.text.includes(NOTE))?.text ?? "";
const countIn = (messages: readonly Message[], needle: string) => JSON.stringify(messages).split(needle).length - 1;

describe("hot reload", () => {
  const fx = useEngineFixture();

  async function session(
    options: {
      catalogUpdates?: "append" | "system";
      debounceMs?: number;
      files?: Record<string, string>;
      guidance?: boolean;
    } = {},
  ) {
    const repo = await fx.repo({
      ".agents/skills/alpha/SKILL.md": skillMd("alpha", "Alpha version one."),
      ".agents/skills/gamma/SKILL.md": skillMd("gamma", "Gamma stays."),
      ...options.files,
    });
    const events: SkillsChangedEvent[] = [];
    const ctx = await fx.context({
      cwd: repo.dir,
      ...(options.guidance !== undefined && { guidance: options.guidance }),
      sources: {
        watch: { debounceMs: options.debounceMs ?? 20 },
      },
      ...(options.catalogUpdates !== undefined && { catalog: { updates: options.catalogUpdates } }),
      telemetry: {
        onEvent: (event) => {
          if (event.type === "skills.changed") events.push(event);
        },
      },
    });
    const messages: Message[] = [user("hello")];
    const first = await ctx.buildContext(messages);
    messages.push(assistant("hi"), user("go on"));
    return { repo, ctx, events, messages, first };
  }

  it("an edited SKILL.md shows at the next step; system stays byte-identical under append", async () => {
    const { repo, ctx, events, messages, first } = await session();
    await repo.write(".agents/skills/alpha/SKILL.md", skillMd("alpha", "Alpha version two, with more words."));
    const step = await stepUntil(ctx, messages, noted);
    expect(step.system).toBe(first.system);
    expect(step.system).toContain("Alpha version one.");
    expect(noteText(step)).toContain("Changed skills");
    expect(noteText(step)).toContain("Alpha version two, with more words.");
    expect(ctx.skills.find((s) => s.name === "alpha")?.description).toBe("Alpha version two, with more words.");
    expect(events).toEqual([{ type: "skills.changed", added: [], changed: ["alpha"], removed: [] }]);
    // The note rides on the newest message, frozen in the state.
    expect(step.attachments.find((a) => a.text.includes(NOTE))?.messageIndex).toBe(messages.length - 1);
    expect(ctx.state.attachments.filter((a) => a.trigger === "update")).toHaveLength(1);
  });

  it("an added skill is listed in the note with its catalog entry and can be loaded; a removed one cannot", async () => {
    const { repo, ctx, events, messages, first } = await session();
    await repo.write(".agents/skills/beta/SKILL.md", skillMd("beta", "Beta arrives mid-session."));
    await rm(path.join(repo.dir, ".agents/skills/alpha"), { recursive: true });
    let text = "";
    const step = await stepUntil(ctx, messages, (s) => {
      text += noteText(s);
      return ctx.skills.some((k) => k.name === "beta") && !ctx.skills.some((k) => k.name === "alpha");
    });
    expect(step.system).toBe(first.system);
    expect(text).toMatch(/New skills:[\s\S]*beta[\s\S]*Beta arrives mid-session\./);
    expect(text).toContain("Removed, no longer available: alpha.");
    expect(events.flatMap((e) => e.added)).toEqual(["beta"]);
    expect(events.flatMap((e) => e.removed)).toEqual(["alpha"]);
    const loaded = await ctx.callTool("load_skill", { name: "beta" });
    expect(loaded.isError).toBeFalsy();
    expect(loaded.content).toContain("The beta body.");
    expect((await ctx.callTool("load_skill", { name: "alpha" })).isError).toBe(true);
  });

  it("names only what changed: a root AGENTS.md shares the repository's folder but is not touched by a skill's edit", async () => {
    const { repo, ctx, messages, first } = await session({
      files: { "AGENTS.md": "# Repository rules\nRun the tests before committing.\n" },
      guidance: true,
    });
    expect(first.system).toContain("Run the tests before committing.");
    await repo.write(".agents/skills/alpha/SKILL.md", skillMd("alpha", "Alpha version three."));
    const step = await stepUntil(ctx, messages, (s) => noteText(s).includes("alpha"));
    expect(noteText(step)).toContain("Alpha version three.");
    expect(noteText(step)).not.toContain("AGENTS.md");
    expect(noteText(step)).not.toContain("Also changed");
  });

  it("a context resumed from the saved state sends the same system and notes what changed while it was away", async () => {
    const { repo, ctx, messages, first } = await session();
    const saved = JSON.parse(JSON.stringify(ctx.state));
    expect(saved.told.system).toBe(first.system);
    await ctx.close();
    // Between the sessions, one skill is edited and one added.
    await repo.write(".agents/skills/alpha/SKILL.md", skillMd("alpha", "Alpha edited while away."));
    await repo.write(".agents/skills/beta/SKILL.md", skillMd("beta", "Beta added while away."));
    const resumed = await fx.context({
      cwd: repo.dir,
      sources: { watch: { debounceMs: 20 } },
      conversation: { state: saved },
    });
    const step = await resumed.buildContext(messages);
    expect(step.system).toBe(first.system);
    expect(step.system).not.toContain("Beta added while away.");
    expect(noteText(step)).toMatch(/New skills:[\s\S]*Beta added while away\./);
    expect(noteText(step)).toMatch(/Changed skills[\s\S]*Alpha edited while away\./);
    expect(noteText(step)).not.toContain("gamma");
    // Saved again and resumed with nothing changed: the same system, and no note.
    const again = await fx.context({
      cwd: repo.dir,
      sources: { watch: { debounceMs: 20 } },
      conversation: { state: JSON.parse(JSON.stringify(resumed.state)) },
    });
    messages.push(assistant("ok"), user("one more"));
    const later = await again.buildContext(messages);
    expect(later.system).toBe(first.system);
    expect(later.attachments.filter((a) => a.messageIndex === messages.length - 1 && a.text.includes(NOTE))).toEqual(
      [],
    );
  });

  it("attaches the note once: later steps carry it on the same message only", async () => {
    const { repo, ctx, messages } = await session();
    await repo.write(".agents/skills/alpha/SKILL.md", skillMd("alpha", "Alpha again."));
    await stepUntil(ctx, messages, noted);
    messages.push(assistant("fine"), user("more"));
    const later = await ctx.buildContext(messages);
    messages.push(assistant("fine"), user("even more"));
    const latest = await ctx.buildContext(messages);
    expect(countIn(later.messages, NOTE)).toBe(1);
    expect(countIn(latest.messages, NOTE)).toBe(1);
    expect(noted(latest)).toBe(true);
    expect(latest.attachments.filter((a) => a.text.includes(NOTE))).toHaveLength(1);
  });

  it('"system" rebuilds the catalog in system and attaches no note', async () => {
    const { repo, ctx, events, messages, first } = await session({ catalogUpdates: "system" });
    await repo.write(".agents/skills/alpha/SKILL.md", skillMd("alpha", "Alpha rebuilt into system."));
    const step = await stepUntil(ctx, messages, (s) => s.system.includes("Alpha rebuilt into system."));
    expect(step.system).not.toBe(first.system);
    expect(noted(step)).toBe(false);
    expect(events.map((e) => e.changed)).toEqual([["alpha"]]);
  });

  it("a loaded skill keeps its body until the model loads it again", async () => {
    const { repo, ctx, messages } = await session();
    const before = await ctx.callTool("load_skill", { name: "alpha" });
    expect(before.content).toContain("The alpha body.");
    await repo.write(
      ".agents/skills/alpha/SKILL.md",
      skillMd("alpha", "Alpha version one.", "A rewritten alpha body, longer than before."),
    );
    await stepUntil(ctx, messages, noted);
    // The body as loaded stays with the active skill (re-attached as loaded after condensation).
    expect(ctx.activeSkill).toBe("alpha");
    expect(ctx.state.carriers?.find((c) => c.skill === "alpha")?.body).toContain("The alpha body.");
    const again = await ctx.callTool("load_skill", { name: "alpha" });
    expect(again.content).toContain("A rewritten alpha body, longer than before.");
    expect(ctx.state.rendered["load:alpha"]).toContain("A rewritten alpha body");
  });

  it("debounces a burst of edits into one reload with the last content", async () => {
    const { repo, ctx, events, messages } = await session({ debounceMs: 400 });
    for (let i = 1; i <= 10; i++)
      await repo.write(".agents/skills/alpha/SKILL.md", skillMd("alpha", `Alpha edit ${i}.`));
    await stepUntil(ctx, messages, noted);
    expect(events).toHaveLength(1);
    expect(ctx.skills.find((s) => s.name === "alpha")?.description).toBe("Alpha edit 10.");
    messages.push(assistant("x"), user("y"));
    await ctx.buildContext(messages);
    expect(events).toHaveLength(1);
  });

  it("watches guidance files and programmatic folder sources too", async () => {
    const outside = await fx.repo({ "delta/SKILL.md": skillMd("delta", "Delta from a folder source.") });
    const repo = await fx.repo({ "AGENTS.md": "Use tabs.\n" });
    const ctx = await fx.context({
      cwd: repo.dir,
      guidance: true,
      sources: {
        watch: { debounceMs: 20 },
      },
      catalog: {
        updates: "system",
      },
      skills: [outside.dir],
    });
    const messages: Message[] = [user("hello")];
    const first = await ctx.buildContext(messages);
    expect(first.system).toContain("Use tabs.");
    await repo.write("AGENTS.md", "Use spaces.\n");
    await outside.write("delta/SKILL.md", skillMd("delta", "Delta changed at its source."));
    const step = await stepUntil(
      ctx,
      messages,
      (s) => s.system.includes("Use spaces.") && s.system.includes("Delta changed at its source."),
    );
    expect(step.system).not.toContain("Use tabs.");
  });
});

describe("HotReload", () => {
  const fx = useEngineFixture();

  function host(overrides: Partial<ConstructorParameters<typeof HotReload>[1]> = {}) {
    const invalidated: string[] = [];
    const cache = createSkillCache();
    const original = cache.invalidate.bind(cache);
    cache.invalidate = (p?: string) => {
      if (p !== undefined) invalidated.push(p);
      original(p);
    };
    return {
      invalidated,
      host: {
        events: new EventBus(),
        cache,
        thaw: () => {},
        report: () => {},
        catalogFormat: undefined,
        told: () => undefined,
        tell: () => {},
        ...overrides,
      },
    };
  }

  it("is due when a remote source's ttl ran out, and not without watch", async () => {
    const repo = await fx.repo();
    const { host: h } = host();
    const remote = [{ key: "url:x", origin: "x", resolved: {}, skills: [], diagnostics: [], ttlMs: 0 }];
    const watching = new HotReload({ watch: true }, h);
    await watching.sources({ cwd: repo.dir }, remote);
    expect(watching.due()).toBe(true);
    await watching.sources({ cwd: repo.dir }, [{ ...remote[0]!, ttlMs: 3_600_000 }]);
    expect(watching.due()).toBe(false);
    await watching.close();
    const idle = new HotReload({}, h);
    await idle.sources({ cwd: repo.dir }, remote);
    expect(idle.due()).toBe(false);
  });

  it("close() stops watching: later edits change nothing", async () => {
    const repo = await fx.repo({ ".claude/skills/a/SKILL.md": skillMd("a", "A.") });
    const { host: h, invalidated } = host();
    const reload = new HotReload({ watch: { debounceMs: 0 } }, h);
    await reload.sources({ cwd: repo.dir }, []);
    await repo.write(".claude/skills/a/SKILL.md", skillMd("a", "A changed."));
    const deadline = Date.now() + 10_000;
    while (!reload.due() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(reload.due()).toBe(true);
    expect(invalidated).toContain(path.join(repo.dir, ".claude/skills/a/SKILL.md"));
    await reload.close();
    await reload.sources({ cwd: repo.dir }, []);
    const seen = invalidated.length;
    await repo.write(".claude/skills/a/SKILL.md", skillMd("a", "A changed after close."));
    await repo.write(".claude/skills/b/SKILL.md", skillMd("b", "B."));
    await new Promise((r) => setTimeout(r, 300));
    expect(invalidated.length).toBe(seen);
    expect(reload.due()).toBe(false);
  });

  it("emits skills.stale as the quiet spell ends (the change, no step needed), and for a remote source's ttl", async () => {
    const repo = await fx.repo({ ".claude/skills/a/SKILL.md": skillMd("a", "A.") });
    const events = new EventBus();
    const stale: EventOf<"skills.stale">[] = [];
    events.on("skills.stale", (event) => {
      stale.push(event);
    });
    const { host: h } = host({ events });
    const reload = new HotReload({ watch: { debounceMs: 0 } }, h);
    await reload.sources({ cwd: repo.dir }, []);
    await repo.write(".claude/skills/a/SKILL.md", skillMd("a", "A changed."));
    const deadline = Date.now() + 10_000;
    while (stale.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(stale[0]).toEqual({
      type: "skills.stale",
      reason: "files",
      paths: [path.join(repo.dir, ".claude/skills/a/SKILL.md")],
    });
    expect(reload.due()).toBe(true);
    stale.length = 0;
    const remote = [{ key: "url:x", origin: "x", resolved: {}, skills: [], diagnostics: [], ttlMs: 10 }];
    await reload.sources({ cwd: repo.dir }, remote);
    while (stale.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(stale).toEqual([{ type: "skills.stale", reason: "ttl", paths: [] }]);
    await reload.close();
  });

  it("a reload that fails keeps the context dirty; one that settles clears it", async () => {
    const repo = await fx.repo({ ".claude/skills/a/SKILL.md": skillMd("a", "A.") });
    const { host: h } = host();
    const reload = new HotReload({ watch: { debounceMs: 0 } }, h);
    await reload.sources({ cwd: repo.dir }, []);
    await repo.write(".claude/skills/a/SKILL.md", skillMd("a", "A changed."));
    const deadline = Date.now() + 10_000;
    while (!reload.due() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await reload.sources({ cwd: repo.dir }, []); // the reload starts, then fails before settle()
    expect(reload.due()).toBe(true);
    await reload.sources({ cwd: repo.dir }, []);
    const empty = { skills: [], byName: new Map(), guidance: [], catalog: [], diagnostics: [] } as never;
    reload.settle(empty, empty, { system: "", catalog: undefined, diagnostics: [] });
    expect(reload.due()).toBe(false);
    await reload.close();
  });

  it("leaves files outside the targets alone: a source file edit is not a change", async () => {
    const repo = await fx.repo({ ".claude/skills/a/SKILL.md": skillMd("a", "A."), "src/app.ts": "export {};\n" });
    const { host: h, invalidated } = host();
    const reload = new HotReload({ watch: { debounceMs: 0 } }, h);
    await reload.sources({ cwd: repo.dir }, []);
    await writeFile(path.join(repo.dir, "src/app.ts"), "export const x = 1;\n");
    await writeFile(path.join(repo.dir, "README.md"), "# hi\n");
    await mkdir(path.join(repo.dir, "node_modules/.agents/skills/z"), { recursive: true });
    await writeFile(path.join(repo.dir, "node_modules/.agents/skills/z/SKILL.md"), skillMd("z", "Z."));
    // A skill edit after them shows that the watcher was live throughout.
    await repo.write(".claude/skills/a/SKILL.md", skillMd("a", "A changed."));
    const deadline = Date.now() + 10_000;
    while (!reload.due() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await reload.close();
    expect([...new Set(invalidated)]).toEqual([path.join(repo.dir, ".claude/skills/a/SKILL.md")]);
  });

  it("watches every guidance file and rule folder compat reads", () => {
    const names = [
      ...FILE_KINDS.flatMap((kind) => kind.names),
      ...[CURSOR_RULES_DIR, COPILOT_RULES_DIR, CLAUDE_RULES_DIR, WINDSURF_RULES_DIR].map((dir) => dir.join("/")),
    ];
    for (const name of names) expect(PROJECT_WATCH_TARGETS).toContain(name.toLowerCase());
  });

  it("watches cwd up to the project root, the user's folders when asked, and folder sources", async () => {
    const repo = await fx.repo({ ".git/HEAD": "ref: refs/heads/main\n" });
    const cwd = path.join(repo.dir, "packages/web");
    await mkdir(cwd, { recursive: true });
    const home = await fx.repo();
    const roots = watchRoots({
      cwd,
      sources: {
        homeDir: home.dir,
        userSkills: true,
      },
      skills: ["../../extra", { name: "x", description: "d", content: "c" } as never],
    });
    expect([...roots.keys()]).toEqual([
      cwd,
      path.join(repo.dir, "packages"),
      repo.dir,
      home.dir,
      path.join(repo.dir, "extra"),
    ]);
    expect(roots.get(repo.dir)).toBe(PROJECT_WATCH_TARGETS);
    expect(roots.get(home.dir)).toEqual(
      expect.arrayContaining([".agents/skills", ".claude/skills", ".claude/claude.md"]),
    );
    expect(roots.get(path.join(repo.dir, "extra"))).toBeUndefined();
  });
});
