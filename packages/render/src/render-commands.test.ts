import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SkillctxError } from "@skillctx/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { renderCommands } from "./render-commands.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "skillctx-render-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const render = async (text: string, options: Partial<Parameters<typeof renderCommands>[1]> = {}) =>
  renderCommands(text, { cwd, ...options });

describe("renderCommands: output", () => {
  it("replaces a command with its stdout", async () => {
    const { text, runs } = await render("Branch: !`echo main`.\nNext line");
    expect(text).toBe("Branch: main.\nNext line");
    expect(runs).toEqual([
      { command: "echo main", line: 1, exitCode: 0, durationMs: expect.any(Number), truncated: false, timedOut: false },
    ]);
  });

  it("trims surrounding whitespace of stdout", async () => {
    const { text } = await render("[!`printf '  \\n\\t hi  there \\n\\n'`]");
    expect(text).toBe("[hi  there]");
  });

  it("runs in cwd", async () => {
    expect((await render("!`pwd`")).text).toBe(cwd);
  });

  it("drops stderr when the command succeeds", async () => {
    expect((await render("!`echo out; echo noise >&2`")).text).toBe("out");
  });

  it("removes ANSI escapes", async () => {
    const { text } = await render("!`printf '\\033[1;31mred\\033[0m \\033]0;title\\007plain'`");
    expect(text).toBe("red plain");
  });

  it("runs a command written over several lines", async () => {
    const { text, runs } = await render("Count: !`for i in 1 2 3\ndo printf $i\ndone`!");
    expect(text).toBe("Count: 123!");
    expect(runs[0]?.line).toBe(1);
  });

  it("never scans command output again", async () => {
    // \140 is a backtick: the command prints !`touch rescanned`.
    const { text, runs } = await render("!`printf '!\\140touch rescanned\\140'`");
    expect(text).toBe("!`touch rescanned`");
    expect(runs).toHaveLength(1);
    expect(existsSync(join(cwd, "rescanned"))).toBe(false);
  });

  it("renders an escaped command literally without running it", async () => {
    const { text, runs } = await render("Write \\!`touch escaped` to embed output.");
    expect(text).toBe("Write !`touch escaped` to embed output.");
    expect(runs).toEqual([]);
    expect(existsSync(join(cwd, "escaped"))).toBe(false);
  });

  it("runs nothing inside code of any kind", async () => {
    const text = [
      "Live: !`echo ran`",
      "",
      "```sh",
      "!`touch fence-backtick`",
      "```",
      "~~~~",
      "!`touch fence-tilde`",
      "```",
      "~~~~",
      "Inline `!`touch inline-1` and ``!`touch inline-2` ``.",
      "",
      "    !`touch indented`",
      "",
      "```",
      "!`touch unclosed`",
    ].join("\n");
    const { text: out, runs } = await render(text);
    expect(runs.map((run) => run.command)).toEqual(["echo ran"]);
    expect(out).toBe(text.replace("!`echo ran`", "ran"));
    for (const name of ["fence-backtick", "fence-tilde", "inline-1", "inline-2", "indented", "unclosed"]) {
      expect(existsSync(join(cwd, name)), name).toBe(false);
    }
  });

  it("returns the text unchanged when there is no command", async () => {
    const text = "# Title\n\nNothing to run, only `code` and ! marks.";
    expect(await render(text)).toEqual({ text, runs: [] });
  });
});

describe("renderCommands: failures render inline", () => {
  it("marks a non-zero exit with the code and the start of stderr", async () => {
    const { text, runs } = await render("Before !`echo partial; echo 'fatal: broken' >&2; exit 3` after");
    expect(text).toBe(
      "Before [Error: `echo partial; echo 'fatal: broken' >&2; exit 3` exited with code 3: fatal: broken] after",
    );
    expect(runs[0]).toMatchObject({
      exitCode: 3,
      timedOut: false,
      error: expect.stringContaining("exited with code 3"),
    });
  });

  it("marks a non-zero exit without stderr", async () => {
    expect((await render("!`exit 7`")).text).toBe("[Error: `exit 7` exited with code 7]");
  });

  it("caps the stderr shown in the marker", async () => {
    const { text } = await render("!`head -c 5000 /dev/zero | tr '\\0' x >&2; exit 1`");
    const shown = /code 1: (x+)…\]$/.exec(text)?.[1] ?? "";
    expect(shown.length).toBe(500);
  });

  it("marks a command that is not found", async () => {
    const { text, runs } = await render("!`skillctx-no-such-command-42`");
    expect(runs[0]?.exitCode).toBe(127);
    expect(text).toMatch(/^\[Error: `skillctx-no-such-command-42` exited with code 127: .*not found.*\]$/);
  });

  it("marks a command that could not start", async () => {
    const { text, runs } = await render("!`echo hi`", { cwd: join(cwd, "missing-dir") });
    expect(text).toMatch(/^\[Error: `echo hi` could not start: .*missing-dir.*\]$/);
    expect(runs[0]).toMatchObject({ exitCode: undefined, error: expect.stringContaining("could not start") });
  });

  it("marks a timeout with the limit and kills the command", async () => {
    const flag = join(cwd, "timeout-flag");
    const { text, runs } = await render(`A !\`sleep 1; touch ${flag}\` B !\`echo fine\``, { timeoutMs: 300 });
    expect(text).toBe(`A [Error: \`sleep 1; touch ${flag}\` timed out after 300 ms] B fine`);
    expect(runs[0]).toMatchObject({ timedOut: true, exitCode: undefined });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(existsSync(flag)).toBe(false);
  });

  it("marks a command killed by a signal", async () => {
    expect((await render("!`kill -9 $$`")).text).toBe("[Error: `kill -9 $$` was killed by SIGKILL]");
  });
});

describe("renderCommands: output cap", () => {
  it("cuts multi-byte output at the cap without splitting a character", async () => {
    const cases = [
      { char: "é", bytes: 2, cap: 51 },
      { char: "€", bytes: 3, cap: 10 },
      { char: "😀", bytes: 4, cap: 11 },
    ];
    for (const { char, bytes, cap } of cases) {
      const { text, runs } = await render(`!\`for i in $(seq 1 100); do printf '${char}'; done\``, {
        maxOutputBytes: cap,
      });
      const [output, marker] = text.split("\n");
      expect(output).toBe(char.repeat(Math.floor(cap / bytes)));
      expect(marker).toBe(`[Output truncated at ${cap} bytes]`);
      expect(runs[0]).toMatchObject({ truncated: true, timedOut: false });
    }
  });

  it("keeps output of exactly the cap whole", async () => {
    const { text, runs } = await render("!`printf 'éé'`", { maxOutputBytes: 4 });
    expect(text).toBe("éé");
    expect(runs[0]?.truncated).toBe(false);
  });

  it("truncates a command that prints forever, stopping it at the cap rather than the timeout", async () => {
    const { text, runs } = await render("!`yes skillctx`", { timeoutMs: 60_000, maxOutputBytes: 1_000 });
    expect(text.endsWith("\n[Output truncated at 1000 bytes]")).toBe(true);
    expect(text.startsWith("skillctx\nskillctx\n")).toBe(true);
    expect(runs[0]).toMatchObject({ truncated: true, timedOut: false });
  });
});

describe("renderCommands: concurrency", () => {
  it("places results in document order while later commands finish first", async () => {
    const log = join(cwd, "finish-order.log");
    const step = (name: string, seconds: string) => `!\`sleep ${seconds}; echo ${name} >> ${log}; echo ${name}\``;
    const text = `${step("a", "0.6")} ${step("b", "0.3")} ${step("c", "0")}`;
    const { text: out, runs } = await render(text);
    expect(out).toBe("a b c");
    expect(runs.map((run) => run.command.slice(-1))).toEqual(["a", "b", "c"]);
    expect((await readFile(log, "utf8")).split("\n").filter(Boolean)).toEqual(["c", "b", "a"]);
    await rm(log);
  });

  it("runs one at a time with concurrency 1", async () => {
    const log = join(cwd, "serial-order.log");
    const step = (name: string, seconds: string) => `!\`sleep ${seconds}; echo ${name} >> ${log}; echo ${name}\``;
    const { text } = await render(`${step("a", "0.3")} ${step("b", "0")}`, { concurrency: 1 });
    expect(text).toBe("a b");
    expect((await readFile(log, "utf8")).split("\n").filter(Boolean)).toEqual(["a", "b"]);
    await rm(log);
  });
});

describe("renderCommands: environment", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it("passes only the allowlisted variables of this process", async () => {
    process.env.SKILLCTX_TEST_SECRET = "s3cret-token";
    process.env.LC_SKILLCTX_TEST = "locale-ok";
    process.env.PATH = `${process.env.PATH ?? ""}:/skillctx-test-path`;
    const { text } = await render('[!`echo "$SKILLCTX_TEST_SECRET"`] [!`echo $LC_SKILLCTX_TEST`] [!`echo $PATH`]');
    expect(text).toBe(`[] [locale-ok] [${process.env.PATH}]`);

    const names = (await render("!`env`")).text.split("\n").map((line) => line.split("=")[0] ?? "");
    const allowed = new Set(["PATH", "HOME", "LANG", "TERM", "USER", "SHELL", "TMPDIR", "PWD", "SHLVL", "_", "OLDPWD"]);
    expect(names.filter((name) => !allowed.has(name) && !name.startsWith("LC_"))).toEqual([]);
  });

  it("lets the caller's env win over inherited values", async () => {
    process.env.HOME = "/inherited-home";
    process.env.SKILLCTX_TEST_SECRET = "from-parent";
    const env = { HOME: "/caller-home", SKILLCTX_TEST_SECRET: "from-caller", EXTRA: "x" };
    const { text } = await render("!`echo $HOME $SKILLCTX_TEST_SECRET $EXTRA`", { env });
    expect(text).toBe("/caller-home from-caller x");
    expect((await render("!`echo $HOME`")).text).toBe("/inherited-home");
  });
});

describe("renderCommands: trust", () => {
  it("runs nothing when untrusted and says so with the default marker", async () => {
    const flag = join(cwd, "untrusted-flag");
    const { text, runs } = await render(`Before !\`touch ${flag}\` after, \\!\`kept\``, { scope: "project" });
    expect(existsSync(flag)).toBe(false);
    expect(text).toBe(
      `Before [Command not run: \`touch ${flag}\` comes from an untrusted source. Trust the source to run its commands.] after, !\`kept\``,
    );
    expect(runs).toEqual([
      {
        command: `touch ${flag}`,
        line: 1,
        exitCode: undefined,
        durationMs: 0,
        truncated: false,
        timedOut: false,
        skipped: true,
      },
    ]);
  });

  it("uses the caller's marker", async () => {
    const { text } = await render("!`date` and !`pwd`", {
      scope: "user",
      trust: { user: false },
      untrustedMarker: (command) => `<${command}: run with --trust>`,
    });
    expect(text).toBe("<date: run with --trust> and <pwd: run with --trust>");
  });
});

describe("renderCommands: options and abort", () => {
  it("rejects invalid options with a typed error", async () => {
    for (const options of [{ concurrency: 0 }, { timeoutMs: -1 }, { maxOutputBytes: 1.5 }, { cwd: "" }]) {
      const error = await render("!`true`", options).catch((e: unknown) => e);
      expect(SkillctxError.isInstance(error) && error.code).toBe("INVALID_RENDER_OPTIONS");
    }
  });

  it("rejects at once, running nothing, when the signal is already aborted", async () => {
    const flag = join(cwd, "aborted-flag");
    await expect(render(`!\`touch ${flag}\``, { signal: AbortSignal.abort() })).rejects.toThrow();
    expect(existsSync(flag)).toBe(false);
  });

  it("rejects with the abort reason and starts no further command", async () => {
    const flag = join(cwd, "after-abort-flag");
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    setTimeout(() => controller.abort(reason), 150);
    const text = `!\`sleep 5\` !\`touch ${flag}\``;
    await expect(render(text, { signal: controller.signal, concurrency: 1 })).rejects.toBe(reason);
    expect(existsSync(flag)).toBe(false);
  });
});

describe("renderCommands: trust and scope", () => {
  it("runs a project text only when the project is trusted, and programmatic text always", async () => {
    expect((await render("!`echo ran`", { scope: "project" })).runs[0]?.skipped).toBe(true);
    expect((await render("!`echo ran`", { scope: "project", trust: { project: true } })).text).toBe("ran");
    expect((await render("!`echo ran`", { scope: "user" })).text).toBe("ran");
    expect((await render("!`echo ran`", { trust: { project: false, user: false } })).text).toBe("ran");
  });

  it("refuses the old `trusted` option rather than running what it meant to stop", async () => {
    const error = await render("!`true`", { trusted: false } as never).catch((e: unknown) => e);
    expect(SkillctxError.isInstance(error) && error.code).toBe("INVALID_RENDER_OPTIONS");
  });
});

describe("renderCommands: caps on one text", () => {
  const growth = (input: string, output: string) => Buffer.byteLength(output) - Buffer.byteLength(input);

  it("renders at most maxCommands spans; the rest stay as written, with one note at the end", async () => {
    const text = ["!`echo 1` !`echo 2`", "!`touch late-3`", "!`touch late-4`", "\\!`escaped` stays an escape"].join(
      "\n",
    );
    const result = await render(text, { maxCommands: 2 });
    expect(result.text).toBe(
      [
        "1 2",
        "!`touch late-3`",
        "!`touch late-4`",
        "!`escaped` stays an escape",
        "",
        "[skillctx: 2 command spans were left as written, not rendered: at most 2 are rendered per text (maxCommands).]",
        "",
      ].join("\n"),
    );
    expect(result.runs.map((run) => run.command)).toEqual(["echo 1", "echo 2"]);
    expect(result.limited).toEqual({ reason: "maxCommands", limit: 2, notRendered: 2, line: 2 });
    expect(existsSync(join(cwd, "late-3"))).toBe(false);
  });

  it("counts untrusted markers inside maxRenderedBytes: 5,000 spans cannot multiply the cap", async () => {
    const text = Array.from({ length: 5_000 }, (_, i) => `!\`c${i}\``).join(" ");
    for (const maxCommands of [10, 10_000]) {
      const result = await render(text, { scope: "project", maxCommands, maxRenderedBytes: 4_096 });
      expect(growth(text, result.text)).toBeLessThanOrEqual(4_096);
      expect(result.runs.every((run) => run.skipped === true)).toBe(true);
      const rendered = result.runs.length;
      expect(rendered).toBeGreaterThan(0);
      expect(result.limited?.notRendered).toBe(5_000 - rendered);
      expect(result.text.match(/\[skillctx: /g)).toHaveLength(1);
      // Everything after the last rendered span is the author's text, unchanged.
      expect(result.text).toContain(`!\`c${rendered}\` !\`c${rendered + 1}\``);
    }
  });

  it("stops at the first output that would pass maxRenderedBytes, and starts no command after the cap is spent", async () => {
    const big = "!`head -c 3000 /dev/zero | tr '\\0' a`";
    const text = `${big}\n${big}\n!\`touch after-cap\`\n`;
    const result = await render(text, { maxRenderedBytes: 4_000, concurrency: 1 });
    const [first, second] = result.text.split("\n");
    expect(first).toBe("a".repeat(3000));
    expect(second).toBe(big);
    expect(result.limited).toMatchObject({ reason: "maxRenderedBytes", limit: 4_000, notRendered: 2, line: 2 });
    expect(result.runs).toHaveLength(1);
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(Buffer.byteLength(text) + 4_000);
    expect(existsSync(join(cwd, "after-cap"))).toBe(false);
  });

  it("gives back rendered spans so that the note itself fits", async () => {
    // 150 bytes of output fit in 256, but not with the ~115-byte note about the second span.
    const text = `!\`printf ${"x".repeat(150)}\`!\`printf y\``;
    const result = await render(text, { maxRenderedBytes: 256, maxCommands: 1 });
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(Buffer.byteLength(text) + 256);
    expect(result.runs).toEqual([]);
    expect(result.limited?.notRendered).toBe(2);
  });

  it("rejects caps that are not positive integers, and a byte cap too small for its note", async () => {
    for (const options of [
      { maxCommands: 0 },
      { maxRenderedBytes: -1 },
      { maxCommands: 1.5 },
      { maxRenderedBytes: 255 },
    ]) {
      const error = await render("!`true`", options).catch((e: unknown) => e);
      expect(SkillctxError.isInstance(error) && error.code).toBe("INVALID_RENDER_OPTIONS");
    }
  });
});
