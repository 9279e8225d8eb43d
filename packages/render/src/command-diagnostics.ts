import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { limitNote } from "./markers.js";
import type { CommandRun, RenderResult } from "./render-commands.js";

/** Where the rendered text came from, for the diagnostics' `path` and `line`. */
export interface CommandDiagnosticsOptions {
  /** The file the text came from. */
  path?: string;
  /** Lines before the rendered text in that file (e.g. the front matter), added to each run's line. @default 0 */
  lineOffset?: number;
}

/**
 * Warnings for the commands that did not render their output: `COMMAND_FAILED` (non-zero exit or could not
 * start), `COMMAND_TIMEOUT`, `COMMAND_OUTPUT_TRUNCATED` and `COMMAND_NOT_RUN` (untrusted source), and, given the
 * whole {@link RenderResult}, one `COMMANDS_LIMITED` when a cap left spans as written. Successful runs produce
 * nothing.
 */
export function commandDiagnostics(
  result: Pick<RenderResult, "runs" | "limited"> | readonly CommandRun[],
  options: CommandDiagnosticsOptions = {},
): Diagnostic[] {
  const runs = isRunList(result) ? result : result.runs;
  const offset = options.lineOffset ?? 0;
  const diagnostics: Diagnostic[] = [];
  for (const run of runs) {
    const where = { path: options.path, line: run.line + offset };
    if (run.skipped === true) {
      diagnostics.push(
        diagnostic("COMMAND_NOT_RUN", "warning", `Command not run (untrusted source): ${run.command}`, where),
      );
    } else if (run.timedOut) {
      diagnostics.push(
        diagnostic("COMMAND_TIMEOUT", "warning", run.error ?? `Command timed out: ${run.command}`, where),
      );
    } else if (run.error !== undefined) {
      diagnostics.push(diagnostic("COMMAND_FAILED", "warning", run.error, where));
    } else if (run.truncated) {
      diagnostics.push(
        diagnostic("COMMAND_OUTPUT_TRUNCATED", "warning", `Output of ${run.command} was truncated`, where),
      );
    }
  }
  const limited = isRunList(result) ? undefined : result.limited;
  if (limited !== undefined) {
    const message = limitNote(limited.notRendered, limited.reason, limited.limit).slice(1, -1);
    diagnostics.push(
      diagnostic("COMMANDS_LIMITED", "warning", message, { path: options.path, line: limited.line + offset }),
    );
  }
  return diagnostics;
}

function isRunList(
  value: Pick<RenderResult, "runs" | "limited"> | readonly CommandRun[],
): value is readonly CommandRun[] {
  return Array.isArray(value);
}
