import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { TOKENIZER } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import type { ContextStep, Message } from "@skillctx/engine";
import { commandSpec } from "./command-specs.js";
import { contextBreakdown, parseWindow } from "./context-breakdown.js";
import { formatContextChart } from "./context-chart.js";
import { envelopeText } from "./envelope.js";
import { writeFindings } from "./findings.js";
import { EXIT_FINDINGS, EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { hasErrors, openContext } from "./load.js";
import { parseFlags } from "./options.js";

/** The window the shares are of when `--window` is not given: Claude's and most frontier models' 200k. */
export const DEFAULT_WINDOW = 200_000;

/**
 * `skillctx context`: what the agent gets, as a breakdown: each part of the system prompt, the tool
 * definitions and what is attached to the messages, with tokens and shares of `--window`. `-m` plays user
 * messages and `--touch PATH` a tool call that read PATH (so path rules and nested guidance fire), in
 * that order, one step each, as `build` does.
 */
export const contextCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("context").flags);
    const givenWindow = flags.string("window");
    const window = givenWindow === undefined ? DEFAULT_WINDOW : parseWindow(givenWindow);
    if (window === undefined)
      throw new UsageError(`--window must be a number of tokens such as 200k, 1m or 128000, got '${givenWindow}'`);
    const promptFile = flags.string("system-prompt");
    const systemPrompt = promptFile === undefined ? undefined : await readPrompt(promptFile);
    const { ctx, cwd, first } = await openContext(flags, io, {
      telemetry: { usage: true },
      ...(systemPrompt !== undefined && { systemPrompt }),
    });
    try {
      const history: Message[] = [];
      const steps: ContextStep[] = [first];
      const play = async () => {
        steps.push(await ctx.buildContext(history, io.signal === undefined ? {} : { signal: io.signal }));
      };
      for (const text of flags.list("message")) {
        history.push({ role: "user", content: text });
        await play();
      }
      flags.list("touch").forEach((touched, i) => touchMessages(touched, i, history));
      if (flags.list("touch").length > 0) {
        // A tool result must answer a turn: without -m, one user turn starts the conversation.
        if (flags.list("message").length === 0) history.unshift({ role: "user", content: "(the task)" });
        await play();
      }
      const last = steps[steps.length - 1]!;
      const view = contextBreakdown({
        step: last,
        skills: ctx.skills,
        systemPrompt,
        catalogText: ctx.catalog?.text,
        cwd,
        window,
      });
      const diagnostics: Diagnostic[] = steps.flatMap((s) => s.diagnostics);
      const activated = steps.flatMap((s) => s.activated);
      if (flags.bool("json")) {
        io.stdout.write(envelopeText("context", { tokenizer: TOKENIZER, ...view, activated }, diagnostics));
      } else {
        io.stdout.write(formatContextChart(view, { columns: io.columns, tokenizer: TOKENIZER }));
        writeFindings(diagnostics, (t) => io.stderr.write(t), { command: "context", columns: io.columns });
      }
      return diagnostics.some((d) => d.severity === "error") || hasErrors(first.diagnostics) ? EXIT_FINDINGS : EXIT_OK;
    } finally {
      await ctx.close();
    }
  },
};

// The two messages of a tool call that read `touched`: the assistant's call (a `file_path` argument, as
// Claude Code's Read sends it) and the tool's answer.
function touchMessages(touched: string, i: number, history: Message[]): void {
  const id = `touch-${i + 1}`;
  history.push(
    { role: "assistant", content: "", toolCalls: [{ id, name: "Read", args: { file_path: touched } }] },
    { role: "tool", toolCallId: id, content: `(contents of ${touched})` },
  );
}

async function readPrompt(file: string): Promise<string> {
  try {
    return await readFile(path.resolve(file), "utf8");
  } catch (error) {
    throw new UsageError(
      `--system-prompt ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
}
