import { statSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { COMMON_FLAGS, FLAGS } from "./flags.js";
import type { FlagInfo, FlagName } from "./flags.js";
import { UsageError } from "./io.js";
import { errorText, suggestField } from "@skillctx/core/internal";

/** Parsed flags with typed accessors. */
export interface Flags {
  string(name: FlagName): string | undefined;
  bool(name: FlagName): boolean;
  list(name: FlagName): string[];
  positionals: string[];
}

/**
 * Parses `argv` against the named flags (plus `--debug` and `--help`). A mistake throws a one-line
 * `UsageError`: unknown option, missing value, unexpected argument, or `--user` with `--no-user`.
 */
export function parseFlags(argv: string[], names: readonly FlagName[], options: { positionals?: boolean } = {}): Flags {
  const all = [...new Set([...names, ...COMMON_FLAGS])];
  const spec: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const name of all) {
    const flag: FlagInfo = FLAGS[name];
    spec[name] = {
      type: flag.type,
      ...(flag.short !== undefined && { short: flag.short }),
      ...(flag.multiple === true && { multiple: true }),
    };
  }
  let parsed: { values: Record<string, string | boolean | Array<string | boolean> | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: spec, allowPositionals: options.positionals === true, strict: true });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error, all));
  }
  const values = parsed.values;
  if (values["user"] === true && values["no-user"] === true)
    throw new UsageError("--user and --no-user exclude each other");
  return {
    positionals: parsed.positionals,
    string: (name) => {
      const value = values[name];
      return typeof value === "string" ? value : undefined;
    },
    bool: (name) => values[name] === true,
    list: (name) => {
      const value = values[name];
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
    },
  };
}

/** The `--cwd` folder, absolute; a path that is missing or not a folder is a usage error (exit 2). */
export function resolveCwd(given: string | undefined): string {
  const cwd = path.resolve(given ?? ".");
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(cwd, { throwIfNoEntry: false });
  } catch (error) {
    throw new UsageError(`--cwd ${given ?? "."}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  if (info === undefined) throw new UsageError(`--cwd ${given ?? "."}: no such folder`);
  if (!info.isDirectory()) throw new UsageError(`--cwd ${given ?? "."}: not a folder`);
  return cwd;
}

/** `--format` and `--budget`: the catalog options of `AgentContext.create`, checked. */
export function catalogOptions(flags: Flags): { format: "xml" | "markdown"; budgetTokens?: number } {
  const format = flags.string("format") ?? "xml";
  if (format !== "xml" && format !== "markdown")
    throw new UsageError(`--format must be xml or markdown, got '${format}'`);
  const given = flags.string("budget");
  if (given === undefined) return { format };
  // A whole number of tokens, at most 2^53 − 1: a bigger one is a typo, not a budget.
  const budgetTokens = /^\d{1,16}$/.test(given) ? Number(given) : Number.NaN;
  if (!Number.isSafeInteger(budgetTokens))
    throw new UsageError(`--budget must be a whole number of tokens up to ${Number.MAX_SAFE_INTEGER}, got '${given}'`);
  return { format, budgetTokens };
}

/**
 * `--user`, or `--no-user` (the default): whether the user's skill folders are read. The library's default
 * (`AgentContext.create` reads no home folder unless `sources.userSkills` says so), so that the CLI shows what a
 * host gets with the same options (docs/decisions.md, "One default for user skills").
 */
export function userSkills(flags: Flags): boolean {
  return flags.bool("user");
}

// node:util parseArgs messages are long and suggest JavaScript; the CLI says the same in a few words.
function parseArgsMessage(error: unknown, names: readonly string[]): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = errorText(error);
  const quoted = /'([^']*)'/.exec(message)?.[1];
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      // A near miss of one of this command's flags: `--jsn` → `--json`.
      const near = quoted?.startsWith("--") === true ? suggestField(quoted.slice(2), names) : undefined;
      return `unknown option '${quoted ?? message}'${near === undefined ? "" : `; did you mean '--${near}'?`}`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${quoted ?? message}'`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      // "Option '-m, --message <value>' argument missing" / "Option '--json' does not take an argument"
      const flag = /'(?:-\w, )?(-[^' ]+)/.exec(message)?.[1];
      if (flag === undefined) return message.split(/\.\s/)[0]!;
      if (message.includes("does not take")) return `${flag} takes no value`;
      // "-m --help": a value that starts with a dash must be attached: --message=-x or -m-x.
      if (message.includes("ambiguous"))
        return `${flag} needs a value (attach one that starts with a dash: ${longForm(flag)}=-VALUE)`;
      return `${flag} needs a value`;
    }
    default:
      return message.split(/\.\s/)[0]!;
  }
}

// `-m` → `--message`; a long flag as it is.
function longForm(flag: string): string {
  if (flag.startsWith("--")) return flag;
  const found = Object.entries(FLAGS).find(([, info]) => (info as FlagInfo).short === flag.slice(1));
  return found === undefined ? flag : `--${found[0]}`;
}
