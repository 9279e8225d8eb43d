import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillctxError } from "skillctx";
import type { ContextStep, Message, SkillInit } from "skillctx";
import { splitArguments, substitute } from "../packages/engine/src/engine/arguments.js";
import { useEngineFixture, user } from "./helpers/engine-fixture.js";

const fixture = useEngineFixture();

const assistant = (content: string, toolCalls?: Message["toolCalls"]): Message =>
  toolCalls === undefined ? { role: "assistant", content } : { role: "assistant", content, toolCalls };
const tool = (toolCallId: string, content: string): Message => ({ role: "tool", content, toolCallId });

/** A skill given in code: on-demand unless the init says otherwise. */
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

/** The text attached to message `index` of a step (its extra text parts). */
function attached(step: ContextStep, index: number): string {
  return step.attachments
    .filter((a) => a.messageIndex === index)
    .map((a) => a.text)
    .join("\n");
}

describe("arguments: splitting and substitution (Claude Code forms)", () => {
  it("splits like a shell: quotes, escapes, white space; operators and $VAR stay text", () => {
    expect(splitArguments(`a "b c" 'd e' f\\ g`)).toEqual(["a", "b c", "d e", "f g"]);
    expect(splitArguments(`  one\t two\n three  `)).toEqual(["one", "two", "three"]);
    expect(splitArguments(`"say \\"hi\\"" 'it''s' x"y z"w`)).toEqual([`say "hi"`, "its", "xy zw"]);
    expect(splitArguments(`a|b ; $HOME && c>d`)).toEqual(["a|b", ";", "$HOME", "&&", "c>d"]);
    expect(splitArguments(`""  ''`)).toEqual(["", ""]);
    expect(splitArguments("")).toEqual([]);
  });

  it("falls back to white space when a quote is not closed, as Claude Code does", () => {
    expect(splitArguments(`it's "fine`)).toEqual(["it's", `"fine`]);
  });

  it("puts in $ARGUMENTS raw and $N / $ARGUMENTS[N] 0-based; a missing one is empty, extra ones only in $ARGUMENTS", () => {
    const args = `"eu west" api --fast extra`;
    const body = "all=[$ARGUMENTS] 0=[$0] 1=[$1] idx2=[$ARGUMENTS[2]] 9=[$9] idx7=[$ARGUMENTS[7]]";
    const result = substitute(body, { args });
    expect(result.text).toBe(`all=["eu west" api --fast extra] 0=[eu west] 1=[api] idx2=[--fast] 9=[] idx7=[]`);
    expect(result.usedArguments).toBe(true);
  });

  it("puts in named arguments by position, and leaves unknown $words and prices' digits followed by letters", () => {
    const body = "env=$env region=$region missing=$third unknown=$HOME $5x $envx";
    const text = substitute(body, { args: "prod eu", argumentNames: ["env", "region", "third"] }).text;
    expect(text).toBe("env=prod region=eu missing= unknown=$HOME $5x $envx");
  });

  it("appends ARGUMENTS: when the body uses no argument placeholder, and only when there are arguments", () => {
    expect(substitute("Deploy it.", { args: "staging now" }).text).toBe("Deploy it.\n\nARGUMENTS: staging now");
    expect(substitute("Deploy it.", { args: "" }).text).toBe("Deploy it.");
    // A skill variable is not an argument placeholder.
    expect(substitute("In ${CLAUDE_SKILL_DIR}.", { args: "x", skillDir: "/s" }).text).toBe("In /s.\n\nARGUMENTS: x");
  });

  it("substitutes in one pass: argument text that looks like a placeholder stays as written", () => {
    const args = "$ARGUMENTS ${CLAUDE_SKILL_DIR} $1 ${CLAUDE_SESSION_ID}";
    const text = substitute("A=$ARGUMENTS B=$0 C=$1", { args, skillDir: "/skills/x", sessionId: "S1" }).text;
    expect(text).toBe("A=$ARGUMENTS ${CLAUDE_SKILL_DIR} $1 ${CLAUDE_SESSION_ID} B=$ARGUMENTS C=${CLAUDE_SKILL_DIR}");
  });

  it("leaves argument placeholders alone without a user invocation, but fills the variables", () => {
    const text = substitute("$ARGUMENTS $0 ${SKILL_DIR} ${CLAUDE_SKILL_DIR} ${CLAUDE_SESSION_ID} ${OTHER}", {
      skillDir: "/d",
      sessionId: "id",
    }).text;
    expect(text).toBe("$ARGUMENTS $0 /d /d id ${OTHER}");
  });
});

describe("user invocation: /name in a new user message", () => {
  it("attaches a SKILL.md skill's rendered body with its arguments, once, and reports model and context", async () => {
    const repo = await fixture.repo({
      ".claude/skills/deploy/SKILL.md": [
        "---",
        "name: deploy",
        "description: Deploy the service.",
        "arguments: [env, region]",
        "model: claude-opus-4",
        "context: fork",
        "---",
        "Deploy to $env in $region (all: $ARGUMENTS). Branch: !`echo main`. Scripts in ${CLAUDE_SKILL_DIR}/scripts.",
        "",
      ].join("\n"),
    });
    const ctx = await fixture.context({ cwd: repo.dir, trust: { project: true } });
    const messages = [user(`/deploy prod "eu west"`)];
    const step = await ctx.buildContext(messages);

    expect(step.activated).toEqual([
      {
        skill: "deploy",
        trigger: "command",
        match: `/deploy prod "eu west"`,
        messageIndex: 0,
        model: "claude-opus-4",
        context: "fork",
      },
    ]);
    const text = attached(step, 0);
    expect(text).toContain(`<skill name="deploy" trigger="command" match="/deploy prod &quot;eu west&quot;">`);
    expect(text).toContain(
      `Deploy to prod in eu west (all: prod "eu west"). Branch: main. Scripts in ${path.join(repo.dir, ".claude/skills/deploy")}/scripts.`,
    );
    expect(ctx.state.attachments.map((a) => [a.skill, a.trigger])).toEqual([["deploy", "command"]]);

    // The next step keeps the same bytes and fires nothing new.
    messages.push(assistant("Deploying."), user("thanks"));
    const next = await ctx.buildContext(messages);
    expect(next.activated).toEqual([]);
    expect(attached(next, 0)).toBe(text);
  });

  it("never runs argument text: !`cmd` in an argument stays text", async () => {
    const repo = await fixture.repo();
    const marker = path.join(repo.dir, "pwned");
    const ctx = await fixture.context({
      cwd: repo.dir,
      skills: [inline("echo", "Run !`echo rendered` then use: $ARGUMENTS")],
    });
    const step = await ctx.buildContext([user(`/echo !\`touch ${marker}\` and $(touch ${marker})`)]);
    const text = attached(step, 0);
    expect(text).toContain(`Run rendered then use: !\`touch ${marker}\` and $(touch ${marker})`);
    expect(existsSync(marker)).toBe(false);
  });

  it("attaches again for a new invocation with other arguments", async () => {
    const ctx = await fixture.context({ cwd: (await fixture.repo()).dir, skills: [inline("deploy", "Deploy to $0.")] });
    const messages = [user("/deploy staging")];
    await ctx.buildContext(messages);
    messages.push(assistant("done"), user("/deploy prod"));
    const step = await ctx.buildContext(messages);
    expect(step.activated.map((a) => a.match)).toEqual(["/deploy prod"]);
    expect(attached(step, 0)).toContain("Deploy to staging.");
    expect(attached(step, 2)).toContain("Deploy to prod.");
  });

  it("invokes a command-trigger skill (a command file) and leaves unknown /words alone", async () => {
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [
        inline("review", "Review the diff.", {
          trigger: { type: "command", prefix: "/" },
          source: { kind: "inline", format: "command", scope: "programmatic" },
        }),
      ],
    });
    const step = await ctx.buildContext([user("/review focus on tests")]);
    expect(step.activated).toEqual([
      { skill: "review", trigger: "command", match: "/review focus on tests", messageIndex: 0 },
    ]);
    expect(attached(step, 0)).toContain("Review the diff.\n\nARGUMENTS: focus on tests");

    const messages = [
      user("/review focus on tests"),
      assistant("ok"),
      user("/usr/bin/env is where?"),
      assistant("there"),
      user("/Review x"),
    ];
    const other = await ctx.buildContext(messages);
    expect(other.activated).toEqual([]);
    expect(other.diagnostics).toEqual([]);
  });

  it("attaches a Cursor manual rule on an @name mention anywhere, not on /name or inside a word", async () => {
    const rule = inline("react-rules", "Use function components.", { trigger: { type: "command", prefix: "@" } });
    const ctx = await fixture.context({ cwd: (await fixture.repo()).dir, skills: [rule] });
    const messages = [user("mail me@react-rules.dev please"), assistant("ok"), user("/react-rules now")];
    const first = await ctx.buildContext(messages);
    expect(first.activated).toEqual([]);
    expect(first.diagnostics.map((d) => d.code)).toEqual(["COMMAND_NOT_INVOCABLE"]);

    messages.push(assistant("ok"), user("Refactor this, following @React-Rules."));
    const step = await ctx.buildContext(messages);
    expect(step.activated).toEqual([
      { skill: "react-rules", trigger: "command", match: "@react-rules", messageIndex: 4 },
    ]);
    expect(attached(step, 4)).toContain("Use function components.");
  });

  it("fires an OpenHands task skill on /name once, as a task (not a second time as a command)", async () => {
    const task = inline("bug-report", "File a bug: ${what}.", {
      trigger: { type: "task", keywords: ["/bug-report"], inputs: [{ name: "what", description: "What fails" }] },
    });
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [task],
      conversation: {
        collectInputs: () => ({ what: "login" }),
      },
    });
    const step = await ctx.buildContext([user("/bug-report the login page")]);
    expect(step.activated).toEqual([{ skill: "bug-report", trigger: "task", match: "/bug-report", messageIndex: 0 }]);
    expect(step.attachments).toHaveLength(1);
    expect(attached(step, 0)).toContain("File a bug: login.");
  });

  it("invokes a path skill by /name, and a task skill from ctx.invoke with its inputs and arguments", async () => {
    const rules = inline("db-rules", "Schema changes need a migration.", {
      trigger: { type: "path", globs: ["src/db/**"] },
    });
    const task = inline("bug-report", "Bug: ${what}. Extra: $ARGUMENTS", {
      trigger: { type: "task", keywords: ["/bug-report"], inputs: [{ name: "what", description: "What fails" }] },
    });
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [rules, task],
      conversation: {
        collectInputs: () => ({ what: "login" }),
      },
    });
    const messages = [user("/db-rules")];
    const step = await ctx.buildContext(messages);
    expect(step.activated).toEqual([{ skill: "db-rules", trigger: "command", match: "/db-rules", messageIndex: 0 }]);
    ctx.invoke("bug-report", "on safari");
    messages.push(assistant("ok"), user("and file that bug"));
    const invoked = await ctx.buildContext(messages);
    expect(invoked.activated).toEqual([
      { skill: "bug-report", trigger: "command", match: "/bug-report on safari", messageIndex: 2 },
    ]);
    expect(attached(invoked, 2)).toContain("Bug: login. Extra: on safari");
  });

  it("invokes a keyword skill by /name as a command, without firing its keyword too", async () => {
    const docker = inline("docker", "Use multi-stage builds.", { trigger: { type: "keyword", keywords: ["docker"] } });
    const ctx = await fixture.context({ cwd: (await fixture.repo()).dir, skills: [docker] });
    const step = await ctx.buildContext([user("/docker slim the image, docker is slow")]);
    expect(step.activated.map((a) => a.trigger)).toEqual(["command"]);
    expect(step.attachments).toHaveLength(1);
  });
});

describe("who may invoke", () => {
  it("user-invocable: false refuses /name with an info diagnostic, leaves the message unchanged, and the model may still load it", async () => {
    const repo = await fixture.repo({
      ".claude/skills/internal/SKILL.md":
        "---\nname: internal\ndescription: Internal notes.\nuser-invocable: false\n---\nInternal body.\n",
    });
    const ctx = await fixture.context({ cwd: repo.dir });
    const messages = [user("/internal go")];
    const step = await ctx.buildContext(messages);
    expect(step.activated).toEqual([]);
    expect(step.messages[0]).toBe(messages[0]);
    expect(step.diagnostics).toEqual([expect.objectContaining({ code: "COMMAND_NOT_INVOCABLE", severity: "info" })]);
    expect(ctx.catalog?.included).toContain("internal");
    const loaded = await ctx.callTool("load_skill", { name: "internal" });
    expect(loaded.isError).toBeUndefined();
    expect(loaded.content).toContain("Internal body.");
    expect(() => ctx.invoke("internal")).toThrow(expect.objectContaining({ code: "SKILL_NOT_INVOCABLE" }));
  });

  it("disable-model-invocation: the user invokes it, the model can neither see it in the catalog nor load it", async () => {
    const repo = await fixture.repo({
      ".claude/skills/release/SKILL.md":
        "---\nname: release\ndescription: Cut a release.\ndisable-model-invocation: true\n---\nRelease $0.\n",
      ".claude/skills/other/SKILL.md": "---\nname: other\ndescription: Something else.\n---\nOther.\n",
    });
    const ctx = await fixture.context({ cwd: repo.dir });
    expect(ctx.catalog?.included).toEqual(["other"]);
    const refused = await ctx.callTool("load_skill", { name: "release" });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain("disable-model-invocation");
    const step = await ctx.buildContext([user("/release v2.0")]);
    expect(step.activated.map((a) => a.skill)).toEqual(["release"]);
    expect(attached(step, 0)).toContain("Release v2.0.");
  });

  it("a command-trigger skill is refused by load_skill", async () => {
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [inline("review", "Review.", { trigger: { type: "command", prefix: "/" } }), inline("other", "Other.")],
    });
    const refused = await ctx.callTool("load_skill", { name: "review" });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain("only the user invokes it");
  });
});

describe("ctx.invoke", () => {
  it("returns the activation and attaches at the next step to the last new user message", async () => {
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [inline("deploy", "Deploy $0.", { model: "haiku" })],
    });
    const messages = [user("hello")];
    await ctx.buildContext(messages);
    expect(ctx.invoke("deploy", "staging")).toEqual({
      skill: "deploy",
      trigger: "command",
      match: "/deploy staging",
      model: "haiku",
    });
    messages.push(assistant("hi"), user("go ahead"), assistant("thinking"));
    const step = await ctx.buildContext(messages);
    expect(step.activated).toEqual([
      { skill: "deploy", trigger: "command", match: "/deploy staging", messageIndex: 2, model: "haiku" },
    ]);
    expect(attached(step, 2)).toContain("Deploy staging.");
    // Once: the following step does not attach it again.
    const again = await ctx.buildContext(messages);
    expect(again.activated).toEqual([]);
    expect(again.attachments).toHaveLength(1);
  });

  it("attaches to the newest message when the step brings no new user message, and waits while there is none", async () => {
    const ctx = await fixture.context({
      cwd: (await fixture.repo()).dir,
      skills: [inline("deploy", "Deploy."), inline("lint", "Lint $0.")],
    });
    ctx.invoke("/deploy");
    const empty = await ctx.buildContext([]);
    expect(empty.activated).toEqual([]);
    const messages: Message[] = [user("start"), assistant("", [{ id: "c1", name: "ls", args: {} }])];
    const first = await ctx.buildContext(messages);
    expect(first.activated).toEqual([{ skill: "deploy", trigger: "command", match: "/deploy", messageIndex: 0 }]);

    expect(ctx.invoke("lint", "src")).toEqual({ skill: "lint", trigger: "command", match: "/lint src" });
    messages.push(tool("c1", "a.txt"));
    const step = await ctx.buildContext(messages);
    expect(step.activated).toEqual([{ skill: "lint", trigger: "command", match: "/lint src", messageIndex: 2 }]);
    expect(attached(step, 2)).toContain("Lint src.");
    // Nothing new at all: the newest message (already sent) gets it; the messages before it keep their bytes.
    ctx.invoke("deploy");
    const same = await ctx.buildContext(messages);
    expect(same.activated).toEqual([{ skill: "deploy", trigger: "command", match: "/deploy", messageIndex: 2 }]);
    expect(same.messages.slice(0, 2)).toEqual(step.messages.slice(0, 2));
    expect(same.attachments.filter((a) => a.messageIndex === 2)).toHaveLength(2);
  });

  it("rejects unknown names, bad arguments and a closed context", async () => {
    const ctx = await fixture.context({ cwd: (await fixture.repo()).dir, skills: [inline("deploy", "Deploy.")] });
    expect(() => ctx.invoke("nope")).toThrow(expect.objectContaining({ code: "SKILL_NOT_FOUND" }));
    expect(() => ctx.invoke(42 as unknown as string)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENTS" }));
    expect(() => ctx.invoke("deploy", {} as unknown as string)).toThrow(SkillctxError);
    await ctx.close();
    expect(() => ctx.invoke("deploy")).toThrow(expect.objectContaining({ code: "CONTEXT_CLOSED" }));
  });
});

describe("resume", () => {
  it("keeps an invoked body frozen: a resumed context attaches the same bytes and runs nothing again", async () => {
    const repo = await fixture.repo();
    const counter = path.join(repo.dir, "count");
    const skill = inline(
      "stamp",
      `Run: !\`echo x >> ${counter}; wc -l < ${counter}\`. Session \${CLAUDE_SESSION_ID}. Args: $ARGUMENTS`,
    );
    const first = await fixture.context({ cwd: repo.dir, skills: [skill] });
    const messages = [user("/stamp one")];
    const step = await first.buildContext(messages);
    const text = attached(step, 0);
    expect(text).toContain("Run: 1.");
    const saved = first.state;
    expect(saved.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(text).toContain(`Session ${saved.sessionId}.`);

    const resumed = await fixture.context({ cwd: repo.dir, skills: [skill], conversation: { state: saved } });
    const again = await resumed.buildContext([...messages, assistant("ok")]);
    expect(attached(again, 0)).toBe(text);
    expect(again.activated).toEqual([]);
    expect(resumed.state.sessionId).toBe(saved.sessionId);
  });

  it("takes the sessionId option, and refuses a bad one", async () => {
    const cwd = (await fixture.repo()).dir;
    const ctx = await fixture.context({
      cwd,
      conversation: {
        sessionId: "sess-42",
      },
      skills: [inline("id", "Id ${CLAUDE_SESSION_ID}.")],
    });
    const step = await ctx.buildContext([user("/id")]);
    expect(attached(step, 0)).toContain("Id sess-42.");
    await expect(fixture.context({ cwd, conversation: { sessionId: "a\nb" } })).rejects.toMatchObject({
      code: "INVALID_OPTIONS",
    });
  });
});
