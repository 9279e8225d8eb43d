import { COMMAND_SPECS } from "./command-specs.js";
import type { CommandSpec } from "./command-specs.js";
import { COMMON_FLAGS, FLAGS } from "./flags.js";
import type { FlagInfo, FlagName } from "./flags.js";
import { DEFAULT_HELP_COLUMNS, twoColumns, wrap } from "./wrap.js";

/**
 * Where the CLI's reference is read: the repository's docs/cli.md (the installed packages ship no docs
 * folder, so help names the URL, never a path).
 */
export const CLI_DOCS_URL = "https://github.com/skillctx/skillctx/blob/main/docs/cli.md";

/** `skillctx --help`: usage, the commands with their summaries, the global options, wrapped to `width`. */
export function overviewHelp(width: number = DEFAULT_HELP_COLUMNS): string {
  const lines = [
    "usage: skillctx <command> [options]",
    "",
    ...wrap("Shows what an agent working in a repository gets from its skills and guidance files.", width),
    "",
    "commands:",
    ...twoColumns(
      COMMAND_SPECS.map((c) => [c.name, c.summary] as const),
      width,
    ),
    "",
    "options:",
    ...twoColumns(
      [
        ["-h, --help", "show help (also: skillctx help <command>, skillctx <command> --help)"],
        ["--version", "print the version"],
      ],
      width,
    ),
    "",
    "examples:",
    ...examples(
      [
        { run: "skillctx list", says: "the skills and guidance an agent in this folder sees" },
        { run: "skillctx help build", says: "one command's options and examples" },
      ],
      width,
    ),
    "",
    ...wrap(
      "Data goes to stdout, diagnostics to stderr. Exit codes: 0 ok, 1 a finding of severity error or a failure, 2 bad usage, 130 interrupted.",
      width,
    ),
    ...wrap(`Reference: ${CLI_DOCS_URL}`, width),
  ];
  return `${lines.join("\n")}\n`;
}

/** `skillctx help <command>` and `skillctx <command> --help`, wrapped to `width`. */
export function commandHelp(command: CommandSpec, width: number = DEFAULT_HELP_COLUMNS): string {
  const names: FlagName[] = [...command.flags, ...COMMON_FLAGS];
  const lines = [
    ...wrap(command.usage, width, "usage: ", "         "),
    "",
    ...wrap(`${capitalise(command.summary)}.`, width),
    "",
    "options:",
    ...twoColumns(
      names.map((name) => [flagLabel(name, FLAGS[name]), FLAGS[name].help] as const),
      width,
    ),
  ];
  if (command.examples !== undefined && command.examples.length > 0)
    lines.push("", "examples:", ...examples(command.examples, width));
  for (const note of command.notes) lines.push("", ...wrap(note, width));
  return `${lines.join("\n")}\n`;
}

/** `skillctx help --json`: the same, as data. */
export function helpJson(commands: readonly CommandSpec[]): unknown {
  return {
    commands: commands.map((c) => ({
      name: c.name,
      summary: c.summary,
      usage: c.usage,
      options: [...c.flags, ...COMMON_FLAGS].map((name) => ({
        flag: flagLabel(name, FLAGS[name]),
        help: FLAGS[name].help,
      })),
      examples: c.examples ?? [],
    })),
  };
}

// Each example: the command line, then what it does, indented under it.
function examples(list: ReadonlyArray<{ run: string; says: string }>, width: number): string[] {
  return list.flatMap((e) => [...wrap(e.run, width, "  $ ", "      "), ...wrap(e.says, width, "      ")]);
}

function flagLabel(name: string, flag: FlagInfo): string {
  const long = `--${name}${flag.value === undefined ? "" : ` ${flag.value}`}`;
  return flag.short === undefined ? long : `-${flag.short}, ${long}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
