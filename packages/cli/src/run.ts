import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { COMMANDS, findCommand } from "./commands.js";
import type { CommandInfo } from "./commands.js";
import { printableLine, jsonText } from "./format.js";
import { commandHelp, helpJson, overviewHelp } from "./help.js";
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from "./io.js";
import type { CliIo } from "./io.js";
import { wantsHelp } from "./options.js";
import { helpWidth } from "./wrap.js";
import { errorText, parseJson, suggestField } from "@skillctx/core/internal";

/**
 * Runs the `skillctx` CLI with `argv` (without node and the script) and returns the exit code:
 * 0 ok, 1 an error-severity finding or a failure, 2 bad usage, 130 interrupted (`io.signal` aborted).
 * Never throws: an unexpected error is one line on stderr (its stack too with `--debug`), exit 1.
 * Help and `--version` import no command module.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  // `skillctx --debug <command> ...` means `skillctx <command> --debug ...`.
  const leadingDebug = argv[0] === "--debug";
  const [first, ...given] = leadingDebug ? argv.slice(1) : argv;
  const rest = leadingDebug ? ["--debug", ...given] : given;
  const width = helpWidth(io.columns);
  if (first === undefined) {
    // No command: the overview, on stderr (it is not the data anyone asked for), exit 2.
    io.stderr.write(overviewHelp(width));
    return EXIT_USAGE;
  }
  if (first === "--help" || first === "-h") {
    io.stdout.write(overviewHelp(width));
    return EXIT_OK;
  }
  if (first === "--version" || first === "-V") {
    io.stdout.write(`${version()}\n`);
    return EXIT_OK;
  }
  if (first === "help") return help(rest, io);
  const command = findCommand(first);
  if (command === undefined) {
    const hint = first.startsWith("-")
      ? `unknown option '${first}'`
      : `unknown command '${first}'${nearCommand(first)}`;
    io.stderr.write(
      `skillctx: ${printableLine(hint)} (commands: ${COMMANDS.map((c) => c.name).join(", ")}; see skillctx --help)\n`,
    );
    return EXIT_USAGE;
  }
  if (wantsHelp(rest, command.flags)) {
    io.stdout.write(commandHelp(command, width));
    return EXIT_OK;
  }
  const debug = rest.slice(0, endOfOptions(rest)).includes("--debug");
  try {
    io.signal?.throwIfAborted();
    const module = await command.load();
    return await module.run(rest, io);
  } catch (error) {
    return failure(command, error, io, debug);
  }
}

/** `skillctx help [command] [--json]`. */
function help(args: string[], io: CliIo): number {
  const json = args.includes("--json");
  const names = args.filter((a) => a !== "--json");
  if (names.length > 1 || names.some((n) => n.startsWith("-"))) {
    io.stderr.write(
      `skillctx help: ${printableLine(`unexpected argument '${names.find((n) => n.startsWith("-")) ?? names[1]}'`)} (usage: skillctx help [COMMAND] [--json])\n`,
    );
    return EXIT_USAGE;
  }
  if (names.length === 0) {
    io.stdout.write(json ? jsonText(helpJson(COMMANDS)) : overviewHelp(helpWidth(io.columns)));
    return EXIT_OK;
  }
  const command = findCommand(names[0]!);
  if (command === undefined) {
    io.stderr.write(
      `skillctx help: ${printableLine(`unknown command '${names[0]}'${nearCommand(names[0]!)}`)} (commands: ${COMMANDS.map((c) => c.name).join(", ")})\n`,
    );
    return EXIT_USAGE;
  }
  io.stdout.write(json ? jsonText(helpJson([command])) : commandHelp(command, helpWidth(io.columns)));
  return EXIT_OK;
}

/** The version in @skillctx/cli's package.json (the packages are versioned together), found by the package's own name (the build bundles this file, so no relative path holds). */
export function version(): string {
  const pkg = parseJson(readFileSync(createRequire(import.meta.url).resolve("@skillctx/cli/package.json"), "utf8")) as {
    version?: unknown;
  };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}

function failure(command: CommandInfo, error: unknown, io: CliIo, debug: boolean): number {
  if (io.signal?.aborted === true) return EXIT_INTERRUPTED;
  const prefix = `skillctx ${command.name}: `;
  if (error instanceof UsageError) {
    io.stderr.write(`${prefix}${printableLine(error.message)} (see skillctx ${command.name} --help)\n`);
    return EXIT_USAGE;
  }
  const code = (error as { code?: unknown } | null)?.code;
  const message = errorText(error);
  const named =
    error instanceof Error && error.name === "SkillctxError" && typeof code === "string" ? ` (${code})` : "";
  io.stderr.write(`${prefix}${printableLine(message)}${named}\n`);
  if (debug && error instanceof Error && error.stack !== undefined) io.stderr.write(`${error.stack}\n`);
  return EXIT_FINDINGS;
}

// `; did you mean 'list'?` for a near miss of a command's name (an edit or a swap away), else nothing.
function nearCommand(given: string): string {
  const near = suggestField(
    given,
    COMMANDS.map((c) => c.name),
  );
  return near === undefined ? "" : `; did you mean '${near}'?`;
}

// Options end at `--`; after it, everything is an argument.
function endOfOptions(args: string[]): number {
  const at = args.indexOf("--");
  return at === -1 ? args.length : at;
}
