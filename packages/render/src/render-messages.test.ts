// What a user reads when rendering goes wrong: the invalid-options error and its data, the markers of a failed or
// truncated command (one line, whitespace collapsed, ANSI escapes gone), the byte cap's note and the diagnostics.
// Each assertion here killed a surviving mutant of the render target (issue 38, docs/mutation.md).
import { getEventListeners } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SkillctxError } from "@skillctx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandDiagnostics } from "./command-diagnostics.js";
import { renderCommands, type RenderOptions } from "./render-commands.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "skillctx-render-messages-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const render = (text: string, options: Partial<RenderOptions> = {}) => renderCommands(text, { cwd, ...options });

describe("renderCommands: the invalid-options error", () => {
  it("names every problem, in order, in its message and its data", async () => {
    const options = {
      cwd: "",
      timeoutMs: 0,
      maxOutputBytes: 1.5,
      concurrency: 0,
      maxCommands: -1,
      maxRenderedBytes: 100,
      trusted: true,
    } as unknown as RenderOptions;
    const error = await renderCommands("!`true`", options).catch((e: unknown) => e);
    expect(SkillctxError.isInstance(error)).toBe(true);
    const problems = [
      "cwd must be a non-empty path",
      "timeoutMs must be a positive number",
      "maxOutputBytes must be a positive integer",
      "concurrency must be a positive integer",
      "maxCommands must be a positive integer",
      "maxRenderedBytes must be an integer of at least 256",
      "trusted was replaced by trust and scope",
    ];
    expect((error as SkillctxError).message).toBe(`Invalid render options: ${problems.join("; ")}.`);
    expect((error as SkillctxError).data).toEqual({ problems });
  });

  it("accepts the smallest valid values", async () => {
    const result = await render("!`echo ok`", { timeoutMs: 5000, maxRenderedBytes: 256, concurrency: 1 });
    expect(result.text).toBe("ok");
  });
});

describe("renderCommands: markers", () => {
  it("shows a failed command on one line with its whitespace collapsed, and the start of stderr on one line", async () => {
    const { text, runs } = await render("!`printf 'first\\n\\n   second\\n' >&2;   exit 3`");
    const error = "`printf 'first\\n\\n second\\n' >&2; exit 3` exited with code 3: first second";
    expect(text).toBe(`[Error: ${error}]`);
    expect(runs[0]?.error).toBe(error);
  });

  it("drops ANSI colours and an escape cut at the end of the output", async () => {
    expect((await render("!`printf 'a\\033[31mred\\033[0m b\\033[3'`")).text).toBe("ared b");
    expect((await render("!`printf 'c\\033[1;2 !'`")).text).toBe("c");
    expect((await render("!`printf 'd\\033'`")).text).toBe("d");
  });

  it("gives only the truncation marker when the kept output is blank", async () => {
    const { text, runs } = await render("!`printf '%40s' ''`", { maxOutputBytes: 10 });
    expect(text).toBe("[Output truncated at 10 bytes]");
    expect(runs[0]?.truncated).toBe(true);
  });

  it("puts the truncation marker on its own line after kept output", async () => {
    const { text } = await render("!`printf 'abcdefghijklmnopqrstuvwxyz'`", { maxOutputBytes: 10 });
    expect(text).toBe("abcdefghij\n[Output truncated at 10 bytes]");
  });
});

describe("renderCommands: the byte cap", () => {
  it("renders output that fills the cap exactly, and leaves the next span with a note when it passes", async () => {
    const fill = "x".repeat(256);
    const exact = await render(`!\`printf ${fill}\``, { maxRenderedBytes: 256 });
    expect(exact.text).toBe(fill);
    expect(exact.limited).toBeUndefined();
    const over = await render(`!\`printf ${fill}y\``, { maxRenderedBytes: 256 });
    expect(over.text).toBe(
      `!\`printf ${fill}y\`\n\n[skillctx: 1 command span was left as written, not rendered: rendering may add at most 256 bytes of output and markers to a text (maxRenderedBytes).]\n`,
    );
    expect(over.limited).toEqual({ reason: "maxRenderedBytes", limit: 256, notRendered: 1, line: 1 });
  });
});

describe("renderCommands: the byte cap, spans given back for the note", () => {
  const x = (bytes: number): string => `!\`printf '%${bytes}s' '' | tr ' ' x\``;
  const note = (spans: string, cap: number): string =>
    `[skillctx: ${spans} left as written, not rendered: rendering may add at most ${cap} bytes of output and markers to a text (maxRenderedBytes).]`;

  it("keeps a span whose output leaves just room for the note", async () => {
    const room = 1000 - Buffer.byteLength(`\n\n${note("1 command span was", 1000)}\n`);
    const result = await render(`${x(room)} ${x(300)}`, { maxRenderedBytes: 1000, concurrency: 1 });
    expect(result.text).toBe(`${"x".repeat(room)} ${x(300)}\n\n${note("1 command span was", 1000)}\n`);
  });

  it("gives back the last rendered span when the note does not fit after it, keeping the first", async () => {
    const result = await render(`${x(100)} ${x(880)} ${x(300)}`, { maxRenderedBytes: 1000, concurrency: 1 });
    expect(result.text).toBe(`${"x".repeat(100)} ${x(880)} ${x(300)}\n\n${note("2 command spans were", 1000)}\n`);
    expect(result.runs).toHaveLength(1);
    expect(result.limited).toEqual({ reason: "maxRenderedBytes", limit: 1000, notRendered: 2, line: 1 });
  });

  it("does not start a command once finished outputs passed the cap (one at a time)", async () => {
    const flag = join(cwd, "not-started");
    const result = await render(`${x(300)}\n!\`touch ${flag}\``, { maxRenderedBytes: 256, concurrency: 1 });
    expect(existsSync(flag)).toBe(false);
    expect(result.limited).toEqual({ reason: "maxRenderedBytes", limit: 256, notRendered: 2, line: 1 });
  });

  it("still runs an empty-output command after output that filled the cap exactly", async () => {
    const result = await render(`${x(256)} !\`true\``, { maxRenderedBytes: 256, concurrency: 1 });
    expect(result.text).toBe(`${"x".repeat(256)} `);
    expect(result.limited).toBeUndefined();
  });
});

describe("renderCommands: the caller's signal", () => {
  it("leaves no listener on the caller's signal, and trips no listener-leak warning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const controller = new AbortController();
      const commands = Array.from({ length: 6 }, (_, i) => `!\`echo ${i}\``).join(" ");
      const result = await render(commands, { signal: controller.signal, concurrency: 6 });
      expect(result.text).toBe("0 1 2 3 4 5");
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("commandDiagnostics: messages", () => {
  it("says which command's output was truncated, and repeats the cap note without its brackets", async () => {
    const result = await render("!`printf 'abcdefghijklmnop'` !`a` !`b`", {
      maxOutputBytes: 4,
      maxCommands: 1,
    });
    expect(commandDiagnostics(result, { path: "SKILL.md" })).toEqual([
      {
        code: "COMMAND_OUTPUT_TRUNCATED",
        severity: "warning",
        message: "Output of printf 'abcdefghijklmnop' was truncated",
        path: "SKILL.md",
        line: 1,
      },
      {
        code: "COMMANDS_LIMITED",
        severity: "warning",
        message:
          "skillctx: 2 command spans were left as written, not rendered: at most 1 is rendered per text (maxCommands).",
        path: "SKILL.md",
        line: 1,
      },
    ]);
  });

  it("words a timed-out run that carries no error of its own", () => {
    const run = { command: "sleep 9", line: 2, exitCode: undefined, durationMs: 5, truncated: false, timedOut: true };
    expect(commandDiagnostics([run])).toEqual([
      { code: "COMMAND_TIMEOUT", severity: "warning", message: "Command timed out: sleep 9", line: 2 },
    ]);
  });
});
