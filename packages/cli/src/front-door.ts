import { COMMAND_SPECS } from "./command-specs.js";
import type { CommandSpec } from "./command-specs.js";
import { envelopeText } from "./envelope.js";
import { printableLine } from "./format.js";
import { version } from "./version.js";
import { commandHelp, helpJson, overviewHelp } from "./help.js";
import { EXIT_OK, EXIT_USAGE } from "./io.js";
import type { CliIo } from "./io.js";
import { wantsHelp } from "./flags.js";
import { helpWidth } from "./wrap.js";

/** What the front door made of the command line: it answered (an exit code), or a command is to run. */
export type FrontDoor = { answered: number } | { command: CommandSpec; args: string[] };

/**
 * The part of the CLI that needs no command module: help, `--version`, `help <command>`, and the
 * usage errors of a missing or unknown command. Everything else names the command to run and its
 * arguments (`--debug` given before the command moved after it).
 *
 * It loads no other package: help and `--version` load no engine, tokenizer or YAML parser, and not even
 * core (docs/performance.md, "Start-up"); a mistyped command imports core's suggester when it happens.
 */
export async function frontDoor(argv: string[], io: CliIo): Promise<FrontDoor> {
  // `skillctx --debug <command> ...` means `skillctx <command> --debug ...`.
  const leadingDebug = argv[0] === "--debug";
  const [first, ...given] = leadingDebug ? argv.slice(1) : argv;
  const rest = leadingDebug ? ["--debug", ...given] : given;
  const width = helpWidth(io.columns);
  if (first === undefined) {
    // No command: the overview, on stderr (it is not the data anyone asked for), exit 2.
    io.stderr.write(overviewHelp(width));
    return { answered: EXIT_USAGE };
  }
  if (first === "--help" || first === "-h") {
    io.stdout.write(overviewHelp(width));
    return { answered: EXIT_OK };
  }
  if (first === "--version" || first === "-V") {
    io.stdout.write(`${version()}\n`);
    return { answered: EXIT_OK };
  }
  if (first === "help") return { answered: await help(rest, io) };
  const command = COMMAND_SPECS.find((c) => c.name === first);
  if (command === undefined) {
    const hint = first.startsWith("-")
      ? `unknown option '${first}'`
      : `unknown command '${first}'${await nearCommand(first)}`;
    io.stderr.write(`skillctx: ${printableLine(hint)} (commands: ${commandNames()}; see skillctx --help)\n`);
    return { answered: EXIT_USAGE };
  }
  if (wantsHelp(rest, command.flags)) {
    io.stdout.write(commandHelp(command, width));
    return { answered: EXIT_OK };
  }
  return { command, args: rest };
}

/** `skillctx help [command] [--json]`. */
async function help(args: string[], io: CliIo): Promise<number> {
  const json = args.includes("--json");
  const names = args.filter((a) => a !== "--json");
  if (names.length > 1 || names.some((n) => n.startsWith("-"))) {
    io.stderr.write(
      `skillctx help: ${printableLine(`unexpected argument '${names.find((n) => n.startsWith("-")) ?? names[1]}'`)} (usage: skillctx help [COMMAND] [--json])\n`,
    );
    return EXIT_USAGE;
  }
  if (names.length === 0) {
    io.stdout.write(json ? envelopeText("help", helpJson(COMMAND_SPECS), []) : overviewHelp(helpWidth(io.columns)));
    return EXIT_OK;
  }
  const command = COMMAND_SPECS.find((c) => c.name === names[0]);
  if (command === undefined) {
    io.stderr.write(
      `skillctx help: ${printableLine(`unknown command '${names[0]}'${await nearCommand(names[0]!)}`)} (commands: ${commandNames()})\n`,
    );
    return EXIT_USAGE;
  }
  io.stdout.write(json ? envelopeText("help", helpJson([command]), []) : commandHelp(command, helpWidth(io.columns)));
  return EXIT_OK;
}

function commandNames(): string {
  return COMMAND_SPECS.map((c) => c.name).join(", ");
}

// `; did you mean 'list'?` for a near miss of a command's name (an edit or a swap away), else nothing.
async function nearCommand(given: string): Promise<string> {
  const { suggestField } = await import("@skillctx/core/internal");
  const near = suggestField(
    given,
    COMMAND_SPECS.map((c) => c.name),
  );
  return near === undefined ? "" : `; did you mean '${near}'?`;
}
