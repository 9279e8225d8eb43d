// In process (sources): who `skillctx list` says may invoke a skill, for every trigger, including the
// command triggers that no SKILL.md produces (command files, Cursor manual rules); and how the
// dispatcher reports an unexpected failure (one line; the stack only with --debug).
import { SkillSchema } from "@skillctx/core/schemas";
import type { SkillInit } from "@skillctx/core";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { invocation } from "../packages/cli/src/list.js";
import { runCli } from "../packages/cli/src/run.js";

const tempDir = useTempDirs("cli-invocation");

const skill = (name: string, fields: Partial<SkillInit>) =>
  SkillSchema.parse({
    name,
    description: "d",
    content: "body",
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "on-demand" },
    ...fields,
  });

describe("who may invoke a skill", () => {
  it("follows the trigger, disable-model-invocation and user-invocable", () => {
    const cases: Array<[Partial<SkillInit>, { model: boolean; user: string | null }]> = [
      [{}, { model: true, user: "/x" }],
      [{ trigger: { type: "keyword", keywords: ["k"] } }, { model: true, user: "/x" }],
      [{ trigger: { type: "task", keywords: ["/x"], inputs: [] } }, { model: true, user: "/x" }],
      [{ trigger: { type: "path", globs: ["*.sql"] } }, { model: false, user: "/x" }],
      [{ trigger: { type: "always" } }, { model: false, user: null }],
      [{ trigger: { type: "command", prefix: "/" } }, { model: false, user: "/x" }],
      [{ trigger: { type: "command", prefix: "@" } }, { model: false, user: "@x" }],
      [{ disableModelInvocation: true }, { model: false, user: "/x" }],
      [{ userInvocable: false }, { model: true, user: null }],
      [
        { userInvocable: false, disableModelInvocation: true },
        { model: false, user: null },
      ],
      [
        { trigger: { type: "always" }, userInvocable: true },
        { model: false, user: null },
      ],
    ];
    for (const [fields, expected] of cases)
      expect(invocation(skill("x", fields)), JSON.stringify(fields)).toEqual(expected);
  });
});

describe("an unexpected failure", () => {
  async function failing(args: string[]) {
    let stderr = "";
    const io = {
      stdout: {
        write: () => {
          throw new Error("disk full\nsecond line");
        },
      },
      stderr: { write: (t: string) => void (stderr += t) },
    };
    const code = await runCli(args, io);
    return { code, stderr };
  }

  it("is one line naming the command, exit 1, newlines in the message escaped", async () => {
    const dir = await tempDir({ ".agents/skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\nx\n" });
    const run = await failing(["list", "--cwd", dir, "--no-user"]);
    expect(run).toEqual({ code: 1, stderr: "skillctx list: disk full\\nsecond line\n" });
  });

  it("with --debug, the stack trace follows the line", async () => {
    const dir = await tempDir({ ".agents/skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\nx\n" });
    const run = await failing(["list", "--cwd", dir, "--no-user", "--debug"]);
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe("skillctx list: disk full\\nsecond line");
    expect(lines.slice(1).some((l) => /^\s+at /.test(l))).toBe(true);
  });

  it("an aborted signal (Ctrl-C) is exit 130 with nothing printed", async () => {
    const dir = await tempDir();
    let out = "";
    const io = {
      stdout: { write: (t: string) => void (out += t) },
      stderr: { write: (t: string) => void (out += t) },
      signal: AbortSignal.abort(),
    };
    expect(await runCli(["list", "--cwd", dir], io)).toBe(130);
    expect(out).toBe("");
  });
});
