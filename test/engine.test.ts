import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentContext } from "skillctx";
import type { AgentContextOptions, ContextStep, Message } from "skillctx";
import { tempRepo } from "./helpers/temp-repo.js";
import type { TempRepo } from "./helpers/temp-repo.js";

const DOCKER = `---
triggers:
  - docker
  - container
---
Use multi-stage builds. Never run containers as root.
`;
const BUG = `---
name: bug-report
inputs:
  - name: bug_description
    description: What goes wrong
    required: true
  - name: severity
    description: How bad it is
    default: medium
---
File a bug: \${bug_description} (severity \${severity}).
`;
const DB_RULES = `---
paths: src/db/**, migrations/*.sql
---
Schema changes need a migration file.
`;
const RELEASE = `---
name: release-notes
description: Write release notes from the git history.
---
# Release notes
Group changes by type.
`;

let repos: TempRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.map((r) => r.dispose()));
  repos = [];
});

async function demoRepo(extra: Record<string, string> = {}): Promise<TempRepo> {
  const repo = await tempRepo({
    "AGENTS.md": "# Acme\nRun `pnpm test` before you commit.\n",
    ".openhands/microagents/docker.md": DOCKER,
    ".openhands/microagents/bug-report.md": BUG,
    ".openhands/microagents/db-rules.md": DB_RULES,
    ".agents/skills/release-notes/SKILL.md": RELEASE,
    "src/db/schema.ts": "export const schema = {};\n",
    ...extra,
  });
  repos.push(repo);
  return repo;
}

async function context(repo: TempRepo, options: Partial<AgentContextOptions> = {}): Promise<AgentContext> {
  return AgentContext.create({ cwd: repo.dir, systemPrompt: "You are a coding agent.", ...options });
}

const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string, toolCalls?: Message["toolCalls"]): Message =>
  toolCalls === undefined ? { role: "assistant", content } : { role: "assistant", content, toolCalls };
const tool = (toolCallId: string, content: string): Message => ({ role: "tool", content, toolCallId });

function attachedText(step: ContextStep, index: number): string {
  const content = step.messages[index]!.content;
  if (typeof content === "string") return "";
  return content
    .slice(1)
    .map((p) => (p as { text?: string }).text ?? "")
    .join("\n");
}

describe("AgentContext: system", () => {
  it("puts the host prompt first, then labelled guidance, then the catalog", async () => {
    const ctx = await context(await demoRepo());
    const step = await ctx.buildContext([user("hello")]);
    const prompt = step.system.indexOf("You are a coding agent.");
    const guidance = step.system.indexOf("Run `pnpm test` before you commit.");
    const catalog = step.system.indexOf("release-notes");
    expect(prompt).toBe(0);
    expect(guidance).toBeGreaterThan(prompt);
    expect(step.system).toMatch(/<guidance name="agents"[^>]*>/);
    expect(catalog).toBeGreaterThan(guidance);
    expect(step.system).toContain("Write release notes from the git history.");
    // keyword and task skills are listed; path rules are not
    expect(step.system).toContain("docker");
    expect(step.system).not.toContain("db-rules");
    await ctx.close();
  });

  it("keeps claude guidance only for Claude models and gemini guidance only for Gemini", async () => {
    const repo = await demoRepo({ "CLAUDE.md": "Claude-only advice.\n", "GEMINI.md": "Gemini-only advice.\n" });
    const forClaude = (await (await context(repo, { model: "claude-sonnet-4-5" })).buildContext([])).system;
    const forGpt = (await (await context(repo, { model: "gpt-4o" })).buildContext([])).system;
    const forUnknown = (await (await context(repo)).buildContext([])).system;
    expect(forClaude).toContain("Claude-only advice.");
    expect(forClaude).not.toContain("Gemini-only advice.");
    expect(forGpt).not.toContain("Claude-only advice.");
    expect(forGpt).not.toContain("Gemini-only advice.");
    expect(forUnknown).toContain("Claude-only advice.");
    expect(forUnknown).toContain("Gemini-only advice.");
  });

  it("leaves disabled skills out everywhere", async () => {
    const ctx = await context(await demoRepo(), { sources: { disabled: ["docker", "agents", "release-notes"] } });
    const step = await ctx.buildContext([user("build the docker image")]);
    expect(step.system).not.toContain("Run `pnpm test`");
    expect(step.system).not.toContain("release-notes");
    expect(step.activated).toEqual([]);
    expect(ctx.skills.map((s) => s.name)).not.toContain("docker");
  });
});

describe("AgentContext: keyword and task triggers", () => {
  it("attaches a keyword skill to the user message that mentions it, once", async () => {
    const ctx = await context(await demoRepo());
    const history: Message[] = [user("Please fix the Docker build")];
    const first = await ctx.buildContext(history);
    expect(first.activated).toEqual([{ skill: "docker", trigger: "keyword", match: "docker", messageIndex: 0 }]);
    const text = attachedText(first, 0);
    expect(text).toContain("Use multi-stage builds.");
    expect(text).toContain('"docker"');
    expect(text).toContain(".openhands/microagents");

    history.push(assistant("Done."), user("Now the container again, docker please"));
    const second = await ctx.buildContext(history);
    expect(second.activated).toEqual([]);
    expect(second.messages[2]!.content).toBe("Now the container again, docker please");
  });

  it("matches whole tokens only, for every skill but OpenHands' legacy microagents", async () => {
    // A SKILL.md keyword skill: whole tokens (the demo's legacy microagent matches substrings, below).
    const repo = await tempRepo({
      ".agents/skills/docker/SKILL.md":
        "---\nname: docker\ndescription: Docker rules.\ntriggers:\n  - docker\n---\nUse multi-stage builds.\n",
    });
    repos.push(repo);
    const ctx = await context(repo);
    expect((await ctx.buildContext([user("see github.com/dockerfile-lint")])).activated).toEqual([]);
    expect(
      (await ctx.buildContext([user("see github.com/dockerfile-lint"), user("my_docker_setup")])).activated,
    ).toEqual([{ skill: "docker", trigger: "keyword", match: "docker", messageIndex: 1 }]);
    // OpenHands' match_trigger is a case-insensitive substring test: the demo's legacy microagent fires inside a word.
    const legacy = await context(await demoRepo());
    expect((await legacy.buildContext([user("see github.com/dockerfile-lint")])).activated).toEqual([
      { skill: "docker", trigger: "keyword", match: "docker", messageIndex: 0 },
    ]);
  });

  it("scans only user messages", async () => {
    const ctx = await context(await demoRepo());
    const step = await ctx.buildContext([user("hi"), assistant("shall I use docker?")]);
    expect(step.activated).toEqual([]);
  });

  it("fills task inputs from collectInputs and defaults", async () => {
    const asked: string[] = [];
    const ctx = await context(await demoRepo(), {
      conversation: {
        collectInputs: async ({ skill, inputs, message }) => {
          asked.push(`${skill.name}:${inputs.map((i) => i.name).join(",")}:${String(message.content)}`);
          return { bug_description: "login fails on Safari" };
        },
      },
    });
    const step = await ctx.buildContext([user("/bug-report please")]);
    expect(step.activated).toEqual([{ skill: "bug-report", trigger: "task", match: "/bug-report", messageIndex: 0 }]);
    expect(asked).toEqual(["bug-report:bug_description,severity:/bug-report please"]);
    const text = attachedText(step, 0);
    expect(text).toContain("File a bug: login fails on Safari (severity medium).");
    expect(text).not.toContain("Ask the user");
  });

  it("without a callback keeps placeholders and tells the model which inputs to ask for", async () => {
    const ctx = await context(await demoRepo());
    const text = attachedText(await ctx.buildContext([user("run /bug-report")]), 0);
    expect(text).toContain("${bug_description}");
    expect(text).toContain("(severity medium)");
    expect(text).toContain("- bug_description: What goes wrong");
    expect(text).not.toContain("- severity");
  });
});

describe("AgentContext: path rules", () => {
  const call = (id: string, args: unknown) => assistant("", [{ id, name: "read_file", args }]);

  it("attaches a path rule to the tool result whose call touched a matching file, once", async () => {
    const repo = await demoRepo();
    const ctx = await context(repo);
    const history: Message[] = [
      user("look at the schema"),
      call("c1", { path: "src/db/schema.ts" }),
      tool("c1", "export const schema = {};"),
    ];
    const step = await ctx.buildContext(history);
    expect(step.activated).toEqual([
      { skill: "db-rules", trigger: "path", match: "src/db/schema.ts", messageIndex: 2 },
    ]);
    expect(attachedText(step, 2)).toContain("Schema changes need a migration file.");

    history.push(call("c2", { file_path: path.join(repo.dir, "src/db/other.ts") }), tool("c2", "..."));
    const again = await ctx.buildContext(history);
    expect(again.activated).toEqual([]);
  });

  it("matches absolute paths inside cwd and never paths outside it", async () => {
    const repo = await demoRepo();
    const ctx = await context(repo);
    const outside = path.join(path.dirname(repo.dir), "src/db/schema.ts");
    const step = await ctx.buildContext([user("x"), call("c1", { path: outside }), tool("c1", "...")]);
    expect(step.activated).toEqual([]);
    const inside = await ctx.buildContext([
      user("x"),
      call("c1", { path: outside }),
      tool("c1", "..."),
      call("c2", { paths: [path.join(repo.dir, "migrations/001.sql")] }),
      tool("c2", "..."),
    ]);
    expect(inside.activated).toEqual([
      { skill: "db-rules", trigger: "path", match: "migrations/001.sql", messageIndex: 4 },
    ]);
  });
});

describe("AgentContext: history and state", () => {
  it("never mutates the caller's messages", async () => {
    const ctx = await context(await demoRepo());
    const history: Message[] = [
      user("docker please"),
      { role: "user", content: [{ type: "text", text: "and /bug-report" }] },
    ];
    const before = JSON.stringify(history);
    Object.freeze(history);
    history.forEach((m) => Object.freeze(m));
    const step = await ctx.buildContext(history);
    expect(step.activated.map((a) => a.skill)).toEqual(["docker", "bug-report"]);
    expect(JSON.stringify(history)).toBe(before);
  });

  it("re-arms a skill when the message it was attached to leaves the history", async () => {
    const ctx = await context(await demoRepo());
    const first = await ctx.buildContext([user("docker build fails"), assistant("ok")]);
    expect(first.activated.map((a) => a.skill)).toEqual(["docker"]);
    // The host condenses history: the triggering message is replaced by a summary without the keyword.
    const condensed: Message[] = [
      user("Summary: a build problem was discussed."),
      assistant("ok"),
      user("try the container again"),
    ];
    const second = await ctx.buildContext(condensed);
    expect(second.activated).toEqual([{ skill: "docker", trigger: "keyword", match: "container", messageIndex: 2 }]);
    expect(attachedText(second, 2)).toContain("Use multi-stage builds.");
  });

  it("keeps an attachment on its message when earlier messages are dropped", async () => {
    const ctx = await context(await demoRepo());
    const a = user("hello");
    const b = user("docker question");
    const first = await ctx.buildContext([a, b]);
    const frozen = attachedText(first, 1);
    const second = await ctx.buildContext([b, user("more")]);
    expect(second.activated).toEqual([]);
    expect(attachedText(second, 0)).toBe(frozen);
  });

  it("freezes attached text: later steps repeat the same bytes after the file changes", async () => {
    const repo = await demoRepo();
    const ctx = await context(repo);
    const history: Message[] = [user("docker?")];
    const first = await ctx.buildContext(history);
    await writeFile(path.join(repo.dir, ".openhands/microagents/docker.md"), DOCKER.replace("multi-stage", "CHANGED"));
    await ctx.refresh();
    history.push(assistant("..."), user("next"));
    const second = await ctx.buildContext(history);
    expect(second.messages[0]).toEqual(first.messages[0]);
  });

  it("resumes from saved state with a byte-identical next step", async () => {
    const repo = await demoRepo();
    const history: Message[] = [user("docker?"), assistant("yes"), user("/bug-report now")];
    const original = await context(repo);
    await original.buildContext(history);
    const saved = JSON.parse(JSON.stringify(original.state));
    history.push(assistant("noted"), user("and the container logs"));
    const resumed = await context(repo, { conversation: { state: saved } });
    const a = await original.buildContext(history);
    const b = await resumed.buildContext(history);
    // What the model sees is byte-identical; the resumed context also reports its load diagnostics.
    const modelFacing = (s: ContextStep) =>
      JSON.stringify({ system: s.system, messages: s.messages, tools: s.tools, activated: s.activated });
    expect(modelFacing(b)).toBe(modelFacing(a));
    expect(a.activated).toEqual([]);
  });

  it("keeps the prompt cache: each step's prefix equals the previous step's serialization (30 steps)", async () => {
    const repo = await demoRepo();
    const ctx = await context(repo);
    const script = [
      "hello",
      "please check the docker setup",
      "thanks",
      "/bug-report login is broken",
      "now the schema",
      "and the container",
      "ok",
    ];
    const history: Message[] = [];
    let previous: { system: string; messages: string[] } | undefined;
    for (let step = 0; step < 30; step++) {
      history.push(user(`${script[step % script.length]} (${step})`));
      if (step % 5 === 4) {
        history.push(assistant("", [{ id: `c${step}`, name: "read", args: { path: "src/db/schema.ts" } }]));
        history.push(tool(`c${step}`, "content"));
      }
      const result = await ctx.buildContext(history);
      const serialized = { system: result.system, messages: result.messages.map((m) => JSON.stringify(m)) };
      if (previous !== undefined) {
        expect(serialized.system).toBe(previous.system);
        expect(serialized.messages.slice(0, previous.messages.length)).toEqual(previous.messages);
      }
      previous = serialized;
      history.push(assistant(`reply ${step}`));
    }
    const attached = previous!.messages.filter((m) => m.includes("<skill name="));
    expect(attached).toHaveLength(3);
  });
});

describe("AgentContext: commands and trust", () => {
  const LIVE = `---
triggers: [branch]
---
Current marker: !\`echo rendered-$((40 + 2))\`
`;

  it("does not run commands of project skills unless the caller trusts the project", async () => {
    const repo = await demoRepo({ ".openhands/microagents/live.md": LIVE });
    const untrusted = attachedText(await (await context(repo)).buildContext([user("which branch")]), 0);
    expect(untrusted).not.toContain("rendered-42");
    expect(untrusted).toContain("Not run");
    expect(untrusted).toContain("trust: { project: true }");
    const trusted = attachedText(
      await (await context(repo, { trust: { project: true } })).buildContext([user("which branch")]),
      0,
    );
    expect(trusted).toContain("Current marker: rendered-42");
  });

  it("renders guidance once at create() and freezes it in state", async () => {
    const repo = await demoRepo({ "AGENTS.md": "Stamp: !`cat stamp.txt`\n", "stamp.txt": "first\n" });
    const ctx = await context(repo, { trust: { project: true } });
    const first = await ctx.buildContext([]);
    expect(first.system).toContain("Stamp: first");
    await writeFile(path.join(repo.dir, "stamp.txt"), "second\n");
    const resumed = await context(repo, { trust: { project: true }, conversation: { state: ctx.state } });
    expect((await resumed.buildContext([])).system).toBe(first.system);
    const fresh = await context(repo, { trust: { project: true } });
    expect((await fresh.buildContext([])).system).toContain("Stamp: second");
    expect(await readFile(path.join(repo.dir, "stamp.txt"), "utf8")).toBe("second\n");
  });

  it("does not render triggered skills when render.onTrigger is off", async () => {
    const repo = await demoRepo({ ".openhands/microagents/live.md": LIVE });
    const ctx = await context(repo, { trust: { project: true }, tools: { render: { onTrigger: false } } });
    const text = attachedText(await ctx.buildContext([user("branch?")]), 0);
    expect(text).toContain("!`echo rendered-$((40 + 2))`");
  });
});

describe("AgentContext: skill set changes and rewrites", () => {
  it("setSkills adds skills that fire on new messages only, leaving earlier messages as they were", async () => {
    const repo = await demoRepo();
    const ctx = await context(repo);
    const history: Message[] = [user("tell me about kubernetes")];
    const first = await ctx.buildContext(history);
    expect(first.activated).toEqual([]);
    await ctx.setSkills([
      {
        name: "k8s",
        description: "Kubernetes help",
        content: "Use kubectl apply -f.",
        source: { kind: "inline", format: "inline", scope: "programmatic" },
        trigger: { type: "keyword", keywords: ["kubernetes"] },
      },
    ]);
    history.push(assistant("..."), user("kubernetes again"));
    const second = await ctx.buildContext(history);
    expect(second.messages[0]).toEqual(first.messages[0]);
    expect(second.activated).toEqual([{ skill: "k8s", trigger: "keyword", match: "kubernetes", messageIndex: 2 }]);
    expect(second.system).toContain("k8s");
  });

  it("a resumed context and the original agree after the host rewrites history", async () => {
    const repo = await demoRepo();
    const original = await context(repo);
    const history: Message[] = [user("docker first"), assistant("a"), user("docker again and /bug-report")];
    await original.buildContext(history);
    const resumed = await context(repo, { conversation: { state: original.state } });
    const rewritten: Message[] = [user("summary"), user("docker again and /bug-report"), user("container")];
    const a = await original.buildContext(rewritten);
    const b = await resumed.buildContext(rewritten.map((m) => ({ ...m })));
    expect(b.messages).toEqual(a.messages);
    expect(b.activated).toEqual(a.activated);
    expect(a.activated).toEqual([{ skill: "docker", trigger: "keyword", match: "container", messageIndex: 2 }]);
  });

  it("does not render or scan again on a step with nothing new", async () => {
    const repo = await demoRepo({
      ".openhands/microagents/counter.md":
        "---\ntriggers: [tally]\n---\nCount: !`echo x >> runs.txt; wc -l < runs.txt`\n",
    });
    const ctx = await context(repo, { trust: { project: true } });
    const history: Message[] = [user("tally please")];
    const first = await ctx.buildContext(history);
    for (let i = 0; i < 5; i++)
      expect(await ctx.buildContext(history)).toEqual({ ...first, activated: [], diagnostics: [] });
    expect(await readFile(path.join(repo.dir, "runs.txt"), "utf8")).toBe("x\n");
  });
});

describe("AgentContext: aborted steps", () => {
  it("an aborted step records nothing: the next step fires what it would have fired", async () => {
    const repo = await demoRepo({
      ".openhands/microagents/slow.md": "---\ntriggers: [slowpoke]\n---\nWaited: !`sleep 5; echo done`\n",
    });
    const ctx = await context(repo, { trust: { project: true } });
    const history: Message[] = [user("slowpoke and docker")];
    const controller = new AbortController();
    const step = ctx.buildContext(history, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 200);
    await expect(step).rejects.toThrow("stop");
    const next = await ctx.buildContext(history, { signal: AbortSignal.timeout(20_000) });
    expect(next.activated.map((a) => `${a.skill}:${a.match}`)).toEqual(["docker:docker", "slow:slowpoke"]);
  }, 30_000);
});

describe("AgentContext: escaped command spans", () => {
  it("shows an escaped span as the literal command, as `skillctx render` does, and runs nothing", async () => {
    const repo = await demoRepo({
      ".openhands/microagents/howto.md": "---\ntriggers: [howto]\n---\nWrite \\!`date` to embed the date.\n",
    });
    const text = attachedText(
      await (await context(repo, { trust: { project: true } })).buildContext([user("howto?")]),
      0,
    );
    expect(text).toContain("Write !`date` to embed the date.");
    expect(text).not.toContain("\\!");
  });
});
