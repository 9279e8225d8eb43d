import { statSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "./io.js";
import { errorText, suggestField } from "@skillctx/core/internal";

/** One flag of the CLI: its parser spec, the name of its value (for help), and its help line. */
export interface FlagInfo {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** The value's placeholder in help (`DIR`, `MODEL`); string flags only. */
  value?: string;
  help: string;
}

/**
 * Every flag of every command, in one table: a flag is spelled, parsed and explained once, so it
 * means the same thing in every command that takes it. Builtins only (help imports this file).
 */
export const FLAGS = {
  cwd: {
    type: "string",
    value: "DIR",
    help: "the agent's working folder: the repository whose skills and guidance apply, where commands run (default: the current folder)",
  },
  user: {
    type: "boolean",
    help: "include the user's skill folders (~/.agents/skills, ~/.claude/skills, ~/.openhands/skills) and guidance, as Claude Code, Codex and Gemini CLI do; off by default, as in the library",
  },
  "no-user": { type: "boolean", help: "leave the user's skill folders out (the default)" },
  trust: {
    type: "boolean",
    help: "trust the project: its !`cmd` spans, scripts and MCP servers run (user skills are trusted already); without it they are shown as not run",
  },
  model: {
    type: "string",
    value: "MODEL",
    help: "the model id (claude-sonnet-4-6, gpt-5, ...): guidance written for another model family is left out",
  },
  emulate: {
    type: "string",
    value: "AGENT",
    help: "read the repository as AGENT does where agents disagree (claude-code, codex, gemini-cli, cursor, copilot, windsurf, cline, openhands): CLAUDE.md only for claude-code, GEMINI.md only for gemini-cli, AGENTS.override.md only for codex",
  },
  "root-marker": {
    type: "string",
    multiple: true,
    value: "NAME",
    help: "a file or folder name that marks the project root, as Codex's project_root_markers (repeatable; default: .git)",
  },
  skills: {
    type: "string",
    multiple: true,
    value: "PATH",
    help: "also load skills from PATH: a skill folder, a folder of skill folders, or a .md file (repeatable; these win name clashes)",
  },
  json: { type: "boolean", help: "print one JSON document on stdout (diagnostics included) instead of text" },
  debug: { type: "boolean", help: "print the stack trace of an unexpected error" },
  help: { type: "boolean", short: "h", help: "show this help" },
  // Command-specific flags.
  message: {
    type: "string",
    short: "m",
    multiple: true,
    value: "TEXT",
    help: "a user message, played as the next turn (repeatable, in order)",
  },
  format: { type: "string", value: "xml|markdown", help: "catalog format (default: xml)" },
  budget: {
    type: "string",
    value: "TOKENS",
    help: "catalog token budget: over it, descriptions are shortened, then names only, then a partial list and search_skills",
  },
  tokens: { type: "boolean", help: "count each skill body's tokens (o200k_base) and show them" },
  strict: { type: "boolean", help: "the reference validator's verdicts exactly (fields of other agents are errors)" },
  explain: { type: "boolean", help: "show which words of the request matched each skill, and in which fields" },
  frozen: {
    type: "boolean",
    help: "check skills.lock.json instead of writing it: a source that drifted from its lock is refused (exit 1)",
  },
  offline: { type: "boolean", help: "use the cache only; never touch the network" },
  stdio: { type: "boolean", help: "serve MCP on stdin/stdout (the default)" },
  http: {
    type: "string",
    value: "PORT",
    help: "serve MCP over Streamable HTTP on PORT (0: a free port), at http://HOST:PORT/mcp",
  },
  host: {
    type: "string",
    value: "HOST",
    help: "the address --http binds to (default: 127.0.0.1; another address exposes the skills to the network)",
  },
  "token-file": {
    type: "string",
    value: "FILE",
    help: "require a bearer token from FILE (one per line, # comments; several for rotation) on every --http request",
  },
  "token-env": {
    type: "string",
    value: "NAME",
    help: "require a bearer token from environment variable NAME (several separated by commas) on every --http request",
  },
  "allow-host": {
    type: "string",
    multiple: true,
    value: "NAME",
    help: "also accept this Host / Origin name (a load balancer's or proxy's; repeatable); loopback addresses and localhost are accepted on loopback",
  },
  sessions: {
    type: "boolean",
    help: "keep MCP sessions in this process (default: stateless, so replicas need no sticky sessions)",
  },
  "no-watch": { type: "boolean", help: "serve a snapshot: do not watch the skill folders for changes" },
  "ttl-ms": {
    type: "string",
    value: "MS",
    help: "the ttlMs skills/list tells clients (how long they may keep a listing; default 60000)",
  },
  "public-url": {
    type: "string",
    value: "URL",
    help: "the endpoint's URL as clients reach it, for the OAuth protected resource metadata (with --authorization-server)",
  },
  "authorization-server": {
    type: "string",
    multiple: true,
    value: "URL",
    help: "an OAuth 2.1 authorization server for this endpoint, published in its protected resource metadata and named in 401s (repeatable)",
  },
} as const satisfies Record<string, FlagInfo>;

export type FlagName = keyof typeof FLAGS;

/** The flags a command accepts beside its own: `--debug` and `--help` everywhere. */
export const COMMON_FLAGS: readonly FlagName[] = ["debug", "help"];

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

/**
 * Whether `argv` asks for help (`-h` or `--help` as an option, not as the value of another option and
 * not after `--`), whatever else is wrong with it.
 */
export function wantsHelp(argv: string[], names: readonly FlagName[]): boolean {
  const spec: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const name of [...names, ...COMMON_FLAGS]) {
    const flag: FlagInfo = FLAGS[name];
    spec[name] = { type: flag.type, ...(flag.short !== undefined && { short: flag.short }) };
  }
  const { tokens } = parseArgs({ args: argv, options: spec, strict: false, allowPositionals: true, tokens: true });
  return tokens.some((token) => token.kind === "option" && token.name === "help");
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
