/**
 * @skillctx/render (issue 4), against bare execa in the same run:
 *  1. 20 short commands rendered with the default concurrency (4) vs running them one after another with
 *     bare `execa("/bin/sh", ["-c", cmd])`;
 *  2. the overhead per command: renderCommands with one command vs one bare execa call (target ≤ 1.2×).
 *
 * Run: `pnpm vitest bench --run bench/render.bench.ts`
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderCommands } from "@skillctx/render";
import { bench, describe } from "vitest";
// execa as @skillctx/render resolves it (the root does not depend on it).
import { execa } from "../packages/render/node_modules/execa/index.js";

const cwd = mkdtempSync(join(tmpdir(), "skillctx-render-bench-"));
const commands = Array.from({ length: 20 }, (_, i) => `echo ${i}`);
const twenty = commands.map((command, i) => `Line ${i}: !\`${command}\``).join("\n");
const expectedTwenty = commands.map((_, i) => `Line ${i}: ${i}`).join("\n");
const options = { time: 4_000, warmupTime: 500 };

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
    "bare execa, one after another",
    async () => {
      const lines: string[] = [];
      for (const [i, command] of commands.entries()) {
        const { stdout } = await execa("/bin/sh", ["-c", command], { cwd });
        lines.push(`Line ${i}: ${stdout.trim()}`);
      }
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
    "bare execa /bin/sh -c",
    async () => {
      const { stdout } = await execa("/bin/sh", ["-c", "echo one"], { cwd });
      if (stdout.trim() !== "one") throw new Error("unexpected output");
    },
    options,
  );
});
