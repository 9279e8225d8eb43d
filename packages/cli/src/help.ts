import { COMMANDS } from "./commands.js";
import type { CommandInfo } from "./commands.js";
import { COMMON_FLAGS, FLAGS } from "./options.js";
import type { FlagInfo, FlagName } from "./options.js";

/** `skillctx --help`: usage, the commands with their summaries, the global options. */
export function overviewHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = [
    "usage: skillctx <command> [options]",
    "",
    "Shows what an agent working in a repository gets from its skills and guidance files.",
    "",
    "commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "options:",
    "  -h, --help     show help (also: skillctx help <command>, skillctx <command> --help)",
    "  --version      print the version",
    "",
    "Data goes to stdout, diagnostics to stderr. Exit codes: 0 ok, 1 a finding of severity error or a failure,",
    "2 bad usage, 130 interrupted. See docs/cli.md.",
  ];
  return `${lines.join("\n")}\n`;
}

/** `skillctx help <command>` and `skillctx <command> --help`. */
export function commandHelp(command: CommandInfo): string {
  const names: FlagName[] = [...command.flags, ...COMMON_FLAGS];
  const labels = names.map((name) => flagLabel(name, FLAGS[name]));
  const width = Math.max(...labels.map((l) => l.length));
  const lines = [
    `usage: ${command.usage}`,
    "",
    `${capitalise(command.summary)}.`,
    "",
    "options:",
    ...names.map((name, i) => `  ${labels[i]!.padEnd(width)}  ${FLAGS[name].help}`),
  ];
  for (const note of command.notes) lines.push("", note);
  return `${lines.join("\n")}\n`;
}

/** `skillctx help --json`: the same, as data. */
export function helpJson(commands: readonly CommandInfo[]): unknown {
  return {
    commands: commands.map((c) => ({
      name: c.name,
      summary: c.summary,
      usage: c.usage,
      options: [...c.flags, ...COMMON_FLAGS].map((name) => ({
        flag: flagLabel(name, FLAGS[name]),
        help: FLAGS[name].help,
      })),
    })),
  };
}

function flagLabel(name: string, flag: FlagInfo): string {
  const long = `--${name}${flag.value === undefined ? "" : ` ${flag.value}`}`;
  return flag.short === undefined ? long : `-${flag.short}, ${long}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
