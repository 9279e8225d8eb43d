import { ellipsizeCodePoints, ellipsizeUtf8Bytes } from "@skillctx/core/internal";

const SHOWN_COMMAND_CHARS = 200;
const STDERR_EXCERPT_BYTES = 500;

/** The inline marker for a failed command: `[Error: …]`. */
export function errorMarker(message: string): string {
  return `[Error: ${message}]`;
}

/** The line appended to output cut at the byte cap. */
export function truncationMarker(maxOutputBytes: number): string {
  return `[Output truncated at ${maxOutputBytes} bytes]`;
}

/** The default text for a command that was not run because its source is untrusted. */
export function defaultUntrustedMarker(command: string): string {
  return `[Command not run: ${codeSpan(shortCommand(command))} comes from an untrusted source. Trust the source to run its commands.]`;
}

/** Why {@link renderCommands} left spans as written: its cap on commands, or on the bytes it adds. */
export type RenderLimitReason = "maxCommands" | "maxRenderedBytes";

/** The one note appended to a text whose spans passed a cap: how many were left as written, and why. */
export function limitNote(notRendered: number, reason: RenderLimitReason, limit: number): string {
  const spans = notRendered === 1 ? "1 command span was" : `${notRendered} command spans were`;
  const why =
    reason === "maxCommands"
      ? `at most ${limit} ${limit === 1 ? "is" : "are"} rendered per text (maxCommands)`
      : `rendering may add at most ${limit} bytes of output and markers to a text (maxRenderedBytes)`;
  return `[skillctx: ${spans} left as written, not rendered: ${why}.]`;
}

/** A command as shown inside a marker: one line, at most 200 characters, as a code span. */
export function shownCommand(command: string): string {
  return codeSpan(shortCommand(command));
}

/** The start of stderr for an error marker: one line, at most 500 bytes. */
export function stderrExcerpt(stderr: string): string {
  const oneLine = stderr.replace(/\s+/g, " ").trim();
  return ellipsizeUtf8Bytes(oneLine, STDERR_EXCERPT_BYTES);
}

function shortCommand(command: string): string {
  const oneLine = command.replace(/\s+/g, " ").trim();
  return ellipsizeCodePoints(oneLine, SHOWN_COMMAND_CHARS);
}

/** Wraps text in a code span whose fence is longer than any backtick run inside it. */
function codeSpan(text: string): string {
  // Stryker disable next-line all: shown commands come from single-backtick code spans, which cannot hold a backtick, so longest is 0 whatever is computed here
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // Stryker disable next-line all: longest is always 0 (see above), so there is never a pad
  const pad = longest > 0 ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}
