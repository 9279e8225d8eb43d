/**
 * @skillctx/render and @skillctx/process (issues 4 and 10), against bare `child_process.execFile` in the
 * same run (execa, the former baseline, is gone from the tree):
 *  1. 20 short commands rendered with the default concurrency (4) vs running them one after another with
 *     bare `execFile("/bin/sh", ["-c", cmd])`;
 *  2. the overhead per command: renderCommands with one command, and runProcess alone, vs one bare
 *     execFile call (target ≤ 1.2×);
 *  3. a command that prints without end (`yes`), stopped at the 50 KiB cap by runProcess, vs bare
 *     execFile with the same `maxBuffer` (which kills the child when it is passed).
 *
 * Run: `pnpm vitest bench --run bench/render.bench.ts`
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "@skillctx/process";
import { renderCommands } from "@skillctx/render";
import { bench, describe } from "vitest";

const cwd = mkdtempSync(join(tmpdir(), "skillctx-render-bench-"));
const commands = Array.from({ length: 20 }, (_, i) => `echo ${i}`);
const twenty = commands.map((command, i) => `Line ${i}: !\`${command}\``).join("\n");
const expectedTwenty = commands.map((_, i) => `Line ${i}: ${i}`).join("\n");
const options = { time: 4_000, warmupTime: 500 };

/** Bare `execFile("/bin/sh", ["-c", command])`: the baseline. Resolves with stdout, even when maxBuffer killed it. */
const sh = (command: string, maxBuffer = 1024 * 1024): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile("/bin/sh", ["-c", command], { cwd, maxBuffer }, (error, stdout) => {
      if (error !== null && (error as { code?: unknown }).code !== "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") reject(error);
      else resolve(stdout);
    });
  });

describe("20 short commands", () => {
  bench(
    "renderCommands, default concurrency",
    async () => {
      const { text } = await renderCommands(twenty, { cwd });
      if (text !== expectedTwenty) throw new Error(`unexpected render: ${text}`);
    },
    options,
  );
  bench(
    "bare execFile, one after another",
    async () => {
      const lines: string[] = [];
      for (const [i, command] of commands.entries()) lines.push(`Line ${i}: ${(await sh(command)).trim()}`);
      if (lines.join("\n") !== expectedTwenty) throw new Error("unexpected output");
    },
    options,
  );
});

describe("one command", () => {
  bench(
    "renderCommands, one command",
    async () => {
      const { text } = await renderCommands("!`echo one`", { cwd });
      if (text !== "one") throw new Error(`unexpected render: ${text}`);
    },
    options,
  );
  bench(
    "runProcess /bin/sh -c",
    async () => {
      const { stdout } = await runProcess("echo one", { cwd });
      if (stdout !== "one\n") throw new Error("unexpected output");
    },
    options,
  );
  bench(
    "bare execFile /bin/sh -c",
    async () => {
      if ((await sh("echo one")).trim() !== "one") throw new Error("unexpected output");
    },
    options,
  );
});

describe("yes, stopped at 50 KiB", () => {
  bench(
    "runProcess",
    async () => {
      const { truncated } = await runProcess("yes", { cwd });
      if (!truncated) throw new Error("not truncated");
    },
    options,
  );
  bench(
    "bare execFile, maxBuffer 50 KiB",
    async () => {
      await sh("yes", 51_200);
    },
    options,
  );
});
