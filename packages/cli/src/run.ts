import { findCommand } from "./commands.js";
import type { CommandInfo } from "./commands.js";
import { printableLine } from "./format.js";
import { frontDoor } from "./front-door.js";
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_USAGE, UsageError } from "./io.js";
import type { CliIo } from "./io.js";

/**
 * Runs the `skillctx` CLI with `argv` (without node and the script) and returns the exit code:
 * 0 ok, 1 an error-severity finding or a failure, 2 bad usage, 130 interrupted (`io.signal` aborted).
 * Never throws: an unexpected error is one line on stderr (its stack too with `--debug`), exit 1.
 * Help and `--version` import no command module.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const door = await frontDoor(argv, io);
  if ("answered" in door) return door.answered;
  const command = findCommand(door.command.name)!;
  const rest = door.args;
  const debug = rest.slice(0, endOfOptions(rest)).includes("--debug");
  try {
    io.signal?.throwIfAborted();
    const module = await command.load();
    return await module.run(rest, io);
  } catch (error) {
    return await failure(command, error, io, debug);
  }
}

async function failure(command: CommandInfo, error: unknown, io: CliIo, debug: boolean): Promise<number> {
  if (io.signal?.aborted === true) return EXIT_INTERRUPTED;
  const prefix = `skillctx ${command.name}: `;
  if (error instanceof UsageError) {
    io.stderr.write(`${prefix}${printableLine(error.message)} (see skillctx ${command.name} --help)\n`);
    return EXIT_USAGE;
  }
  // Core is loaded by every command by now; help, which never fails here, does not load it.
  const [{ SkillctxError }, { errorText }] = await Promise.all([
    import("@skillctx/core"),
    import("@skillctx/core/internal"),
  ]);
  const message = errorText(error);
  const named = SkillctxError.isInstance(error) ? ` (${error.code})` : "";
  io.stderr.write(`${prefix}${printableLine(message)}${named}\n`);
  if (debug && error instanceof Error && error.stack !== undefined) io.stderr.write(`${error.stack}\n`);
  return EXIT_FINDINGS;
}

// Options end at `--`; after it, everything is an argument.
function endOfOptions(args: string[]): number {
  const at = args.indexOf("--");
  return at === -1 ? args.length : at;
}
