import { describe, expect, it } from "vitest";
import type { ContextStep, Message, SkillInit } from "skillctx";
import { useEngineFixture, user } from "./helpers/engine-fixture.js";
import { compareCodePoints } from "../packages/core/src/code-point-order.js";

const fixture = useEngineFixture();

const assistant = (content: string, toolCalls?: Message["toolCalls"]): Message =>
  toolCalls === undefined ? { role: "assistant", content } : { role: "assistant", content, toolCalls };
const tool = (toolCallId: string, content: string): Message => ({ role: "tool", content, toolCallId });

function inline(name: string, content: string, init: Partial<SkillInit> = {}): SkillInit {
  return {
    name,
    description: `The ${name} skill.`,
    content,
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "on-demand" },
    ...init,
  };
}

function attachedTo(step: ContextStep, index: number): string[] {
  return step.attachments.filter((a) => a.messageIndex === index).map((a) => a.text);
}

describe("active skills survive condensation", () => {
  it("re-attaches an invoked body to the newest message once when the host condenses its message away", async () => {
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [inline("deploy", "Deploy to $0 with care.")],
    });
    const history = [user("/deploy staging"), assistant("Deploying."), user("status?"), assistant("Half done.")];
    await ctx.buildContext(history);

    // The host replaces the first two messages by a summary and goes on.
    const condensed = [
      user("Summary: the user asked for a staging deploy."),
      history[2]!,
      history[3]!,
      user("continue"),
    ];
    const step = await ctx.buildContext(condensed);
    expect(attachedTo(step, 3)).toHaveLength(1);
    const text = attachedTo(step, 3)[0]!;
    expect(text).toContain(`<skill name="deploy" trigger="reattach" match="/deploy staging">`);
    expect(text).toContain("Deploy to staging with care.");
    expect(ctx.state.attachments.map((a) => a.trigger)).toEqual(["reattach"]);
    expect(ctx.state.carriers).toEqual([
      expect.objectContaining({ skill: "deploy", kind: "command", fingerprint: ctx.state.attachments[0]!.fingerprint }),
    ]);

    // Once: later steps keep the same bytes and attach nothing more.
    condensed.push(assistant("ok"), user("and now?"));
    const later = await ctx.buildContext(condensed);
    expect(later.attachments).toEqual([{ messageIndex: 3, text }]);

    // Condensed again (the carrier of the re-attachment goes too): attached again to the newest message.
    const again = await ctx.buildContext([user("Summary 2."), condensed[5]!, assistant("fine"), user("next")]);
    expect(attachedTo(again, 3).join("")).toContain("Deploy to staging with care.");
  });

  it("re-attaches after a full compaction to a summary and a new message, even when the invocation opened the conversation", async () => {
    const ctx = await fixture.context({ cwd: (await fixture.repo()).dir, skills: [inline("deploy", "Deploy to $0.")] });
    await ctx.buildContext([user("/deploy prod"), assistant("on it"), user("go")]);
    const step = await ctx.buildContext([user("Summary of everything."), user("next task")]);
    expect(attachedTo(step, 1).join("")).toContain("Deploy to prod.");
  });

  it("does not re-attach when the conversation is cut back to before the invocation (a rewind)", async () => {
    const ctx = await fixture.context({ cwd: (await fixture.repo()).dir, skills: [inline("deploy", "Deploy to $0.")] });
    const history = [user("hello"), assistant("hi"), user("/deploy prod"), assistant("deploying")];
    await ctx.buildContext(history);
    const rewound = await ctx.buildContext([history[0]!, history[1]!, user("actually, do nothing")]);
    expect(rewound.attachments).toEqual([]);
    expect(ctx.state.carriers).toBeUndefined();
  });

  it("re-attaches the active loaded skill's frozen body when its tool result is condensed away, not after unload", async () => {
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [inline("pdf", "Use pdftk for PDFs. Dir ${CLAUDE_SKILL_DIR}."), inline("other", "Other.")],
    });
    const history: Message[] = [user("fill the form")];
    await ctx.buildContext(history);
    const result = await ctx.callTool("load_skill", { name: "pdf" });
    history.push(
      assistant("", [{ id: "t1", name: "load_skill", args: { name: "pdf" } }]),
      tool("t1", result.content),
      assistant("Loaded."),
      user("now fill it"),
    );
    const loaded = await ctx.buildContext(history);
    expect(loaded.activated).toEqual([{ skill: "pdf", trigger: "load" }]);
    expect(ctx.state.carriers).toEqual([
      expect.objectContaining({ skill: "pdf", kind: "load", fingerprint: expect.any(String) }),
    ]);

    const condensed = [user("Summary: pdf skill loaded."), history[3]!, history[4]!];
    const step = await ctx.buildContext(condensed);
    const text = attachedTo(step, 2).join("");
    expect(text).toContain(`<skill name="pdf" trigger="reattach" match="load">`);
    expect(text).toContain("Use pdftk for PDFs. Dir ${CLAUDE_SKILL_DIR}.");

    // Unloaded, then condensed again: nothing is re-attached.
    await ctx.callTool("unload_skill", { name: "pdf" });
    const after = await ctx.buildContext([user("Summary 2."), user("next")]);
    expect(after.attachments).toEqual([]);
  });

  it("cuts each re-attached body at maxReattachedSkillBytes, and leaves out what does not fit the total, oldest first", async () => {
    const body = (word: string) => `${word} `.repeat(200); // 1,000+ bytes each
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [inline("a", body("alpha")), inline("b", body("beta")), inline("c", "gamma short")],
      conversation: {
        limits: { maxReattachedSkillBytes: 600, maxReattachedTotalBytes: 1_000 },
      },
    });
    const history = [user("/a"), assistant("1"), user("/b"), assistant("2"), user("/c"), assistant("3"), user("more")];
    await ctx.buildContext(history);
    const step = await ctx.buildContext([user("Summary."), history[6]!]);
    const texts = attachedTo(step, 1);
    // Most recently invoked first: c (short), then b (cut to 600 bytes); a does not fit in what is left.
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain("gamma short");
    expect(texts[1]).toContain("beta");
    expect(texts[1]).toContain("is cut here");
    expect(texts.join("")).not.toContain("alpha");
    expect(step.diagnostics.map((d) => d.code).sort(compareCodePoints)).toEqual([
      "SKILL_BODY_CUT",
      "SKILL_REATTACH_LIMIT",
    ]);
    expect(ctx.state.carriers?.map((c) => c.skill)).toEqual(["b", "c"]);
  });

  it("re-attaches from a resumed state", async () => {
    const repo = await fixture.repo();
    const skills = [inline("deploy", "Deploy to $0.")];
    const first = await fixture.context({ cwd: repo.dir, skills });
    const history = [user("/deploy qa"), assistant("ok"), user("go on")];
    await first.buildContext(history);
    const resumed = await fixture.context({ cwd: repo.dir, skills, conversation: { state: first.state } });
    const step = await resumed.buildContext([user("Summary."), history[2]!, assistant("fine"), user("next")]);
    expect(attachedTo(step, 3).join("")).toContain("Deploy to qa.");
  });

  it("leaves keyword attachments as before: re-armed, not re-attached", async () => {
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [inline("docker", "Use slim images.", { trigger: { type: "keyword", keywords: ["docker"] } })],
    });
    await ctx.buildContext([user("docker please"), assistant("ok"), user("more")]);
    const step = await ctx.buildContext([user("Summary."), user("next")]);
    expect(step.attachments).toEqual([]);
  });
});
