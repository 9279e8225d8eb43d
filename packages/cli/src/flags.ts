import { parseArgs } from "node:util";

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
 * means the same thing in every command that takes it. Builtins only: help imports this file, and help loads no other package.
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
  json: {
    type: "boolean",
    help: "print one JSON document on stdout instead of text: { command, version, data, diagnostics } (docs/cli-json.schema.json)",
  },
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
  wide: {
    type: "boolean",
    help: "one row per skill with every column (scope, arguments, path) and the whole description, however wide",
  },
  window: {
    type: "string",
    value: "TOKENS",
    help: "the model's context window the shares are of: a number, or with k or m (200k, 1m; default 200k)",
  },
  "system-prompt": {
    type: "string",
    value: "FILE",
    help: "the host's own system prompt, read from FILE: it comes first in system, as the host's systemPrompt option",
  },
  touch: {
    type: "string",
    multiple: true,
    value: "PATH",
    help: "play a tool call that touched PATH (relative to --cwd), so path rules and nested guidance show (repeatable)",
  },
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
