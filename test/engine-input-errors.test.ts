import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillctxError } from "@skillctx/core";
import { AgentContext } from "skillctx";
import type { AgentContextOptions, ContextState, Message } from "skillctx";
import { useEngineFixture, user } from "./helpers/engine-fixture.js";
import type { TempRepo } from "./helpers/temp-repo.js";

const DOCKER = "---\ntriggers: [docker]\n---\nUse multi-stage builds.\n";
const DEPLOY = "---\ntriggers: [deploy]\n---\nDeploy with the blue-green script.\n";

const fixture = useEngineFixture();
const demo = (): Promise<TempRepo> =>
  fixture.repo({ ".openhands/microagents/docker.md": DOCKER, ".openhands/microagents/deploy.md": DEPLOY });
const context = (repo: TempRepo, options: Partial<AgentContextOptions> = {}): Promise<AgentContext> =>
  fixture.context({ cwd: repo.dir, ...options });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (!SkillctxError.isInstance(error)) throw new Error(`not a SkillctxError: ${String(error)}`);
    return error.code;
  }
  return "(resolved)";
}

describe("AgentContext: malformed messages", () => {
  const circular: Record<string, unknown> = { path: "src/a.ts" };
  circular.self = circular;
  const shapes: Array<[string, unknown]> = [
    ["null", null],
    ["a number", 42],
    ["a string", "hello"],
    ["an object", { role: "user", content: "hi" }],
    ["a null message", [null]],
    ["a number message", [7]],
    ["a message without role", [{ content: "hi" }]],
    ["an unknown role", [{ role: "root", content: "hi" }]],
    ["content of the wrong type", [{ role: "user", content: 5 }]],
    ["a null content part", [{ role: "user", content: [null] }]],
    ["a content part without type", [{ role: "user", content: [{ text: "hi" }] }]],
    ["toolCalls that are not an array", [{ role: "assistant", content: "", toolCalls: { id: "c1" } }]],
    ["a tool call without id", [{ role: "assistant", content: "", toolCalls: [{ name: "read", args: {} }] }]],
    ["a toolCallId that is a number", [{ role: "tool", content: "x", toolCallId: 3 }]],
    [
      "circular tool-call arguments",
      [{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read", args: circular }] }],
    ],
    [
      "BigInt tool-call arguments",
      [{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read", args: { n: 1n } }] }],
    ],
    [
      "a getter that throws",
      [
        {
          role: "user",
          get content(): string {
            throw new Error("boom");
          },
        },
      ],
    ],
  ];

  it.each(shapes)("%s rejects with MESSAGES_INVALID", async (_label, messages) => {
    const ctx = await context(await demo());
    expect(await codeOf(ctx.buildContext(messages as Message[]))).toBe("MESSAGES_INVALID");
  });

  it("names the first bad message and field, and records nothing: the next good step fires as usual", async () => {
    const ctx = await context(await demo());
    const history: unknown[] = [user("docker please"), { role: "user", content: [{ type: "text", text: "ok" }, 3] }];
    let error: unknown;
    try {
      await ctx.buildContext(history as Message[]);
    } catch (caught) {
      error = caught;
    }
    expect((error as SkillctxError).code).toBe("MESSAGES_INVALID");
    expect((error as SkillctxError).message).toMatch(/^messages\[1\]\.content/);
    expect(ctx.state.attachments).toEqual([]);
    expect(ctx.state.scanned).toEqual([]);
    const step = await ctx.buildContext([user("docker please")]);
    expect(step.activated.map((a) => a.skill)).toEqual(["docker"]);
  });

  it("checks only what is new: a malformed message appended later is caught on its step", async () => {
    const ctx = await context(await demo());
    const history: unknown[] = [user("hello")];
    await ctx.buildContext(history as Message[]);
    history.push({ role: "user" });
    expect(await codeOf(ctx.buildContext(history as Message[]))).toBe("MESSAGES_INVALID");
    history[1] = user("deploy now");
    expect((await ctx.buildContext(history as Message[])).activated.map((a) => a.skill)).toEqual(["deploy"]);
  });

  it("accepts what MessageSchema accepts: unknown part types and extra keys pass through", async () => {
    const ctx = await context(await demo());
    const image = { type: "image", image: "data:...", extra: { nested: true } };
    const step = await ctx.buildContext([
      { role: "user", content: [image, { type: "text", text: "docker" }], extraKey: 1 } as Message,
    ]);
    expect(step.activated.map((a) => a.skill)).toEqual(["docker"]);
    expect((step.messages[0]!.content as unknown[])[0]).toBe(image);
  });
});

describe("AgentContext: malformed state", () => {
  const good = (): ContextState => ({ version: 1, attachments: [], scanned: [], rendered: {} });
  const shapes: Array<[string, unknown]> = [
    ["null", null],
    ["a string", "state"],
    ["an empty object", {}],
    ["another version", { ...good(), version: 2 }],
    ["attachments that are not an array", { ...good(), attachments: {} }],
    ["an attachment of the wrong shape", { ...good(), attachments: [{ skill: 1 }] }],
    [
      "an unknown trigger",
      { ...good(), attachments: [{ skill: "a", trigger: "telepathy", match: "", fingerprint: "f", text: "" }] },
    ],
    ["scan marks that are numbers", { ...good(), scanned: [1, 2] }],
    ["a rendering that is not text", { ...good(), rendered: { "load:x": { evil: true } } }],
    ["an active skill that is a number", { ...good(), activeSkill: 5 }],
    [
      "a getter that throws",
      {
        ...good(),
        get scanned(): string[] {
          throw new Error("boom");
        },
      },
    ],
  ];

  it.each(shapes)("%s rejects with STATE_INVALID", async (_label, state) => {
    const repo = await demo();
    expect(
      await codeOf(
        AgentContext.create({ cwd: repo.dir, guidance: false, conversation: { state: state as ContextState } }),
      ),
    ).toBe("STATE_INVALID");
  });

  it("a good state is copied: changing the caller's object or a snapshot does not reach the context", async () => {
    const repo = await demo();
    const first = await context(repo);
    await first.buildContext([user("docker please")]);
    const saved = first.state;
    const ctx = await context(repo, { conversation: { state: saved } });
    saved.attachments.length = 0;
    saved.activeSkill = "deploy";
    const snapshot = ctx.state;
    snapshot.attachments.length = 0;
    expect(ctx.state.attachments.map((a) => a.skill)).toEqual(["docker"]);
    expect(ctx.activeSkill).toBeUndefined();
  });
});

describe("AgentContext: a skill file that disappears", () => {
  it("becomes a diagnostic of the step while the other skills that fire are attached", async () => {
    const repo = await demo();
    const ctx = await context(repo);
    await rm(path.join(repo.dir, ".openhands/microagents/docker.md"));
    const step = await ctx.buildContext([user("docker and deploy")]);
    expect(step.activated).toEqual([{ skill: "deploy", trigger: "keyword", match: "deploy", messageIndex: 0 }]);
    expect(JSON.stringify(step.messages)).toContain("blue-green");
    const failed = step.diagnostics.filter((d) => d.code === "SKILL_READ_FAILED");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.message).toContain('"docker"');
    expect(failed[0]!.path).toBe(path.join(repo.dir, ".openhands/microagents/docker.md"));
  });

  it("load_skill of a vanished skill is an error result, not a rejection", async () => {
    const repo = await fixture.repo({
      ".agents/skills/notes/SKILL.md": "---\nname: notes\ndescription: Notes.\n---\nTake notes.\n",
    });
    const ctx = await context(repo);
    await rm(path.join(repo.dir, ".agents/skills/notes/SKILL.md"));
    const result = await ctx.callTool("load_skill", { name: "notes" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('Cannot load "notes"');
    expect(ctx.activeSkill).toBeUndefined();
  });
});

describe("AgentContext: bad tool arguments stay error results", () => {
  it.each([[null], [42], ["not json"], [{ name: 5 }], [{ name: "   " }], [[1, 2]]])(
    "load_skill with %j",
    async (args) => {
      const ctx = await context(await demo());
      const result = await ctx.callTool("load_skill", args);
      expect(result.isError).toBe(true);
    },
  );
});
