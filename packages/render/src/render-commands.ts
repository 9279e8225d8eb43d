import { isPositiveInteger, optionMessage } from "@skillctx/core/internal";
import { setMaxListeners } from "node:events";
import { SkillctxError, isScopeTrusted } from "@skillctx/core";
import type { SkillScope, Trust } from "@skillctx/core";
import { DEFAULT_MAX_COMMANDS_PER_TEXT, DEFAULT_MAX_RENDERED_BYTES } from "./limits.js";
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, runProcess } from "@skillctx/process";
import type { ProcessResult, RunProcessOptions } from "@skillctx/process";
import { LineCounter, visitSpans } from "./find-commands.js";
import type { InlineSpan } from "./find-commands.js";
import { mapConcurrent } from "@skillctx/core/internal";
import {
  defaultUntrustedMarker,
  errorMarker,
  limitNote,
  shownCommand,
  stderrExcerpt,
  truncationMarker,
} from "./markers.js";
import type { RenderLimitReason } from "./markers.js";

/** Options for {@link renderCommands}. */
export interface RenderOptions {
  /** Working directory of every command (usually the repository or the skill's folder). */
  cwd: string;
  /** Per command; the whole process group is killed when it passes. `Infinity` means no limit. @default 10_000 */
  timeoutMs?: number;
  /** Bytes of UTF-8 kept of each command's stdout; past it reading stops and the command is killed. @default 51_200 */
  maxOutputBytes?: number;
  /** Added to the allowlisted environment (PATH, HOME, LANG, LC_*, TERM, USER, SHELL, TMPDIR); these values win. */
  env?: Record<string, string>;
  /** Commands running at once. @default 4 */
  concurrency?: number;
  /** Aborting kills every running command's process group; the promise then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /**
   * Which scopes may run commands (the one trust vocabulary of skillctx). With `scope`, decides whether the
   * spans run or each becomes a "not run" marker from `untrustedMarker`.
   * @default { project: false, user: true }
   */
  trust?: Trust;
  /**
   * Where the text comes from (usually `skill.source.scope`). Programmatic text is always trusted, so leaving
   * this out runs the commands whatever `trust` says.
   * @default "programmatic"
   */
  scope?: SkillScope;
  /** A remote skill's origin (`skill.source.origin`): trusted when named in `trust.remote`. */
  origin?: string | undefined;
  /** The marker for a command that was not run because its scope is not trusted. The default says the source is untrusted and how to allow it. */
  untrustedMarker?: (command: string) => string;
  /**
   * Most `` !`cmd` `` spans rendered (run, or marked as not run) in this text; later spans stay as written, and
   * one note at the end says how many and why.
   * @default 50
   */
  maxCommands?: number;
  /**
   * UTF-8 bytes that rendering may add to this text: the outputs and markers of all spans, and the final note,
   * together. A span whose replacement would pass it, and every span after, stays as written (with the note), so
   * a file of 60,000 spans cannot multiply the per-command cap. Commands are no longer started once it is spent.
   * At least 256, room for the note.
   * @default 131_072
   */
  maxRenderedBytes?: number;
}

/** What happened to one command, in document order. */
export interface CommandRun {
  command: string;
  /** 1-based line of the `!` in the rendered text. */
  line: number;
  /** Exit code; undefined when killed (timeout, output cap), not started, or skipped. */
  exitCode: number | undefined;
  durationMs: number;
  /** stdout passed `maxOutputBytes` and was cut. */
  truncated: boolean;
  timedOut: boolean;
  /** Not run because the text's scope is not trusted. */
  skipped?: boolean;
  /** Why the command's span became an `[Error: …]` marker. */
  error?: string;
}

/** The rendered text and what each command did. */
export interface RenderResult {
  text: string;
  /** One entry per rendered span, in document order (spans left as written by a cap have none). */
  runs: CommandRun[];
  /** Set when a cap left spans as written: how many, which cap, and the line of the first of them. */
  limited?: { reason: RenderLimitReason; limit: number; notRendered: number; line: number };
}

/**
 * Replaces every `` !`cmd` `` outside code (see {@link findCommands}) with the command's stdout, ANSI escapes
 * removed and whitespace trimmed; `` \!`cmd` `` becomes the literal `` !`cmd` ``. Output is never scanned again.
 *
 * Commands run through `/bin/sh -c` in `cwd`, up to `concurrency` at once, each in its own process group with an
 * allowlisted environment, a timeout and an output cap. Failures never throw: a non-zero exit, a timeout or a
 * command that could not start renders as an `[Error: …]` marker. Only an abort rejects, after every process is gone.
 * What one text can grow by is bounded as a whole: `maxCommands` spans, `maxRenderedBytes` bytes (markers included).
 *
 * @example
 * const { text, runs } = await renderCommands("On branch !`git branch --show-current`.", { cwd: repo });
 */
export async function renderCommands(text: string, options: RenderOptions): Promise<RenderResult> {
  checkOptions(options);
  const { signal } = options;
  signal?.throwIfAborted();
  const maxCommands = options.maxCommands ?? DEFAULT_MAX_COMMANDS_PER_TEXT;
  const maxBytes = options.maxRenderedBytes ?? DEFAULT_MAX_RENDERED_BYTES;

  // The first `maxCommands` commands, every escape, and only a count (and the first line) of the rest.
  const lines = new LineCounter(text);
  const spans: InlineSpan[] = [];
  const commands: Array<{ command: string; line: number }> = [];
  let extra = 0;
  let extraLine = 0;
  visitSpans(text, (span) => {
    if (span.kind === "escape") {
      spans.push(span);
    } else if (commands.length < maxCommands) {
      spans.push(span);
      commands.push({ command: span.command, line: lines.lineAt(span.start) });
    } else if (extra++ === 0) {
      extraLine = lines.lineAt(span.start);
    }
  });

  const outcomes = await runAll(commands, options, maxBytes);
  const { cut, limited } = fitToCap(outcomes, commands, extra, extraLine, maxCommands, maxBytes);

  let rendered = "";
  let position = 0;
  let next = 0;
  for (const span of spans) {
    if (span.kind === "command" && next >= cut) continue; // left as written
    rendered += text.slice(position, span.start);
    rendered +=
      span.kind === "escape" ? text.slice(span.start + 1, span.end) : (outcomes[next++] as Outcome).replacement;
    position = span.end;
  }
  rendered += text.slice(position);
  const result: RenderResult = { text: rendered, runs: outcomes.slice(0, cut).map((o) => (o as Outcome).run) };
  if (limited !== undefined) {
    const note = limitNote(limited.notRendered, limited.reason, limited.limit);
    result.text = `${rendered}${rendered === "" || rendered.endsWith("\n\n") ? "" : rendered.endsWith("\n") ? "\n" : "\n\n"}${note}\n`;
    result.limited = limited;
  }
  return result;
}

interface Outcome {
  replacement: string;
  run: CommandRun;
}

/**
 * How many commands (from the start, in document order) are rendered: each replacement while the total still
 * fits in `maxBytes`; the first that does not, and all after it, stay as written. When any span stays as
 * written, the note counts too: spans are given back from the end until it fits.
 */
function fitToCap(
  outcomes: ReadonlyArray<Outcome | undefined>,
  commands: ReadonlyArray<{ line: number }>,
  extra: number,
  extraLine: number,
  maxCommands: number,
  maxBytes: number,
): { cut: number; limited: RenderResult["limited"] } {
  let used = 0;
  let cut = 0;
  const sizes: number[] = [];
  // Stryker disable next-line EqualityOperator: at cut === commands.length the outcome is undefined, its size infinite, and the loop breaks at the same cut
  for (; cut < commands.length; cut++) {
    const outcome = outcomes[cut];
    const size = outcome === undefined ? Number.POSITIVE_INFINITY : Buffer.byteLength(outcome.replacement);
    if (used + size > maxBytes) break;
    used += size;
    sizes.push(size);
  }
  for (;;) {
    const notRendered = commands.length - cut + extra;
    // Stryker disable next-line ObjectLiteral: with nothing left, cut is commands.length; an undefined cut renders every span too
    if (notRendered === 0) return { cut, limited: undefined };
    const reason: RenderLimitReason = cut < commands.length ? "maxRenderedBytes" : "maxCommands";
    const limit = reason === "maxCommands" ? maxCommands : maxBytes;
    const note = `\n\n${limitNote(notRendered, reason, limit)}\n`;
    // At cut 0 the note fits: it is shorter than MIN_RENDERED_BYTES.
    if (used + Buffer.byteLength(note) <= maxBytes || cut === 0) {
      return { cut, limited: { reason, limit, notRendered, line: commands[cut]?.line ?? extraLine } };
    }
    cut--;
    used -= sizes[cut] ?? 0;
  }
}

/** Runs (or marks) the commands; `undefined` for a command not started because the byte cap was already spent. */
async function runAll(
  commands: ReadonlyArray<{ command: string; line: number }>,
  options: RenderOptions,
  maxBytes: number,
): Promise<Array<Outcome | undefined>> {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: a shortcut; with no command both branches below give [], and outcomes are read only at commands' indexes
  if (commands.length === 0) return [];
  if (!isScopeTrusted(options.scope ?? "programmatic", options.trust, options.origin)) {
    const marker = options.untrustedMarker ?? defaultUntrustedMarker;
    return commands.map(({ command, line }) => ({
      replacement: marker(command),
      run: { command, line, exitCode: undefined, durationMs: 0, truncated: false, timedOut: false, skipped: true },
    }));
  }
  const stripAnsi = await loadStripAnsi();
  const { signal } = options;
  const limit = options.concurrency ?? 4;
  // One listener on the caller's signal; each running command listens to an internal one instead, so a high
  // concurrency does not trip Node's listener-leak warning on the caller's signal.
  const internal = new AbortController();
  setMaxListeners(limit + 1, internal.signal);
  // Stryker disable next-line OptionalChaining: forward is registered only on a signal that exists
  const forward = (): void => internal.abort(signal?.reason);
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: abort fires at most once, and the finally below removes the listener
  signal?.addEventListener("abort", forward, { once: true });
  const runOptions = { ...processOptions(options), signal: internal.signal };
  // Commands start in document order; once finished outputs alone pass the cap, every later span would be left
  // as written anyway, so it is not started.
  let finishedBytes = 0;
  try {
    return await mapConcurrent(
      commands,
      limit,
      async ({ command, line }) => {
        if (finishedBytes > maxBytes) return undefined;
        const done = outcome(command, line, await runProcess(command, runOptions), options, stripAnsi);
        finishedBytes += Buffer.byteLength(done.replacement);
        return done;
      },
      internal.signal,
    );
  } finally {
    signal?.removeEventListener("abort", forward);
  }
}

function processOptions(options: RenderOptions): RunProcessOptions {
  const result: RunProcessOptions = { cwd: options.cwd };
  // Stryker disable ConditionalExpression: runProcess reads an absent and an undefined option alike (its defaults)
  if (options.env !== undefined) result.env = options.env;
  if (options.timeoutMs !== undefined) result.timeoutMs = options.timeoutMs;
  if (options.maxOutputBytes !== undefined) result.maxOutputBytes = options.maxOutputBytes;
  // Stryker restore ConditionalExpression
  return result;
}

function outcome(
  command: string,
  line: number,
  result: ProcessResult,
  options: RenderOptions,
  stripAnsi: StripAnsi,
): Outcome {
  const run: CommandRun = {
    command,
    line,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    truncated: result.truncated,
    timedOut: result.timedOut,
  };
  let failure: string | undefined;
  if (result.error !== undefined) {
    failure = `${shownCommand(command)} could not start: ${result.error}`;
  } else if (result.timedOut) {
    failure = `${shownCommand(command)} timed out after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`;
  } else if (!result.truncated && result.exitCode !== 0) {
    const how =
      result.exitCode !== undefined
        ? `exited with code ${result.exitCode}`
        : `was killed by ${result.exitSignal ?? "a signal"}`;
    const excerpt = stderrExcerpt(cleanOutput(result.stderr, stripAnsi));
    failure = `${shownCommand(command)} ${how}${excerpt === "" ? "" : `: ${excerpt}`}`;
  }
  if (failure !== undefined) {
    run.error = failure;
    return { replacement: errorMarker(failure), run };
  }
  const output = cleanOutput(result.stdout, stripAnsi);
  if (!result.truncated) return { replacement: output, run };
  const marker = truncationMarker(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  return { replacement: output === "" ? marker : `${output}\n${marker}`, run };
}

type StripAnsi = (text: string) => string;
let stripAnsiModule: Promise<{ default: StripAnsi }> | undefined;

// strip-ansi is needed only once a command has run: loaded then, not when the package is imported.
async function loadStripAnsi(): Promise<StripAnsi> {
  stripAnsiModule ??= import("strip-ansi");
  return (await stripAnsiModule).default;
}

/** ANSI escapes removed (including one cut in half at the byte cap), surrounding whitespace trimmed. */
function cleanOutput(output: string, stripAnsi: StripAnsi): string {
  return stripAnsi(output.replace(/\u001b(?:\[[0-?]*[ -/]*)?$/, "")).trim();
}

/** Room for the note about spans left as written, so that it always fits in the cap. */
const MIN_RENDERED_BYTES = 256;

function checkOptions(options: RenderOptions): void {
  const problems: string[] = [];
  const positiveInteger = (value: number | undefined): boolean => value === undefined || isPositiveInteger(value);
  if (typeof options.cwd !== "string" || options.cwd === "") problems.push(optionMessage("cwd", "a non-empty path"));
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0))
    problems.push(optionMessage("timeoutMs", "a positive number"));
  for (const name of ["maxOutputBytes", "concurrency", "maxCommands"] as const)
    if (!positiveInteger(options[name])) problems.push(optionMessage(name, "a positive integer"));
  if (
    !positiveInteger(options.maxRenderedBytes) ||
    (options.maxRenderedBytes ?? MIN_RENDERED_BYTES) < MIN_RENDERED_BYTES
  ) {
    problems.push(optionMessage("maxRenderedBytes", `an integer of at least ${MIN_RENDERED_BYTES}`));
  }
  if ((options as { trusted?: unknown }).trusted !== undefined)
    problems.push("trusted was replaced by trust and scope");
  if (problems.length > 0) {
    throw new SkillctxError("INVALID_RENDER_OPTIONS", `Invalid render options: ${problems.join("; ")}.`, {
      data: { problems },
    });
  }
}
