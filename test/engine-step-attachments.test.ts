import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ContextStep, Message } from "skillctx";
import { useEngineFixture, user } from "./helpers/engine-fixture.js";

const DOCKER = "---\ntriggers:\n  - docker\n---\nUse multi-stage builds.\n";
const K8S = "---\ntriggers:\n  - kubernetes\n---\nSet resource limits.\n";
const DB = "---\npaths: migrations/*.sql\n---\nSchema changes need a migration file.\n";

// The texts the engine appended to message i: the trailing text parts beyond the host's own content.
function appendedParts(step: ContextStep, host: readonly Message[], i: number): string[] {
  const out = step.messages[i]!;
  if (out === host[i] || typeof out.content === "string") return [];
  const own = typeof host[i]!.content === "string" ? 1 : (host[i]!.content as unknown[]).length;
  return out.content.slice(own).map((part) => (part as { text: string }).text);
}

describe("step.attachments", () => {
  const fixture = useEngineFixture();

  it("lists every attached text by message index, in the order appended, and agrees with the messages", async () => {
    const repo = await fixture.repo({
      ".openhands/microagents/docker.md": DOCKER,
      ".openhands/microagents/k8s.md": K8S,
      ".openhands/microagents/db.md": DB,
    });
    const ctx = await fixture.context({ cwd: repo.dir });
    const history: Message[] = [user("deploy with docker and kubernetes")];
    const first = await ctx.buildContext(history);
    expect(first.attachments.map((a) => a.messageIndex)).toEqual([0, 0]);
    expect(first.attachments.map((a) => a.text)).toEqual(appendedParts(first, history, 0));
    expect(first.attachments[0]!.text).toContain("multi-stage");
    expect(first.attachments[1]!.text).toContain("resource limits");

    history.push(
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "read", args: { path: path.join(repo.dir, "migrations/001.sql") } }],
      },
      { role: "tool", toolCallId: "c1", content: "CREATE TABLE t (id int);" },
      user("thanks"),
    );
    const second = await ctx.buildContext(history);
    expect(second.attachments.map((a) => a.messageIndex)).toEqual([0, 0, 2]);
    expect(second.attachments[2]!.text).toContain("migration file");
    expect(second.attachments.slice(0, 2)).toEqual(first.attachments);
    for (const i of [0, 1, 2, 3]) {
      expect(second.attachments.filter((a) => a.messageIndex === i).map((a) => a.text)).toEqual(
        appendedParts(second, history, i),
      );
    }
  });

  it("follows the messages when the host drops the first ones: indexes shift, dropped attachments go", async () => {
    const repo = await fixture.repo({
      ".openhands/microagents/docker.md": DOCKER,
      ".openhands/microagents/k8s.md": K8S,
    });
    const ctx = await fixture.context({ cwd: repo.dir });
    const a = user("use docker");
    const b: Message = { role: "assistant", content: "ok" };
    const c = user("now kubernetes");
    await ctx.buildContext([a, b, c]);
    const condensed = await ctx.buildContext([b, c]);
    expect(condensed.attachments).toHaveLength(1);
    expect(condensed.attachments[0]!.messageIndex).toBe(1);
    expect(condensed.attachments[0]!.text).toContain("resource limits");
  });

  it("is empty when nothing is attached, and survives a resume with the same bytes", async () => {
    const repo = await fixture.repo({ ".openhands/microagents/docker.md": DOCKER });
    const ctx = await fixture.context({ cwd: repo.dir });
    expect((await ctx.buildContext([user("hello")])).attachments).toEqual([]);
    const history = [user("hello"), user("docker please")];
    const before = await ctx.buildContext(history);
    const resumed = await fixture.context({ cwd: repo.dir, conversation: { state: ctx.state } });
    const after = await resumed.buildContext(history);
    expect(after.attachments).toEqual(before.attachments);
    expect(after.attachments).toHaveLength(1);
  });
});
