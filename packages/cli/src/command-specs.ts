import type { FlagName } from "./flags.js";

/**
 * What the CLI knows of its commands without loading them: a leaf that the command modules read
 * their flags from and that the command table (`commands.ts`) completes with a loader each.
 */

/** A command of the CLI: everything help prints. */
export interface CommandSpec {
  name: string;
  /** One line in `skillctx --help`. */
  summary: string;
  /** The usage line. */
  usage: string;
  /** Its flags (besides `--debug` and `--help`), explained from the one table in `options.ts`. */
  flags: readonly FlagName[];
  /** Whether it takes positional arguments (files, folders). */
  positionals: boolean;
  /** Paragraphs after the flags in `skillctx help <command>`. */
  notes: readonly string[];
  /** Command lines shown under `examples:` in its help, each with what it does (a test wants at least one). */
  examples?: readonly CommandExample[];
}

/** One example of a command's help: a command line and what it does. */
export interface CommandExample {
  /** The command line, from `skillctx`. */
  run: string;
  /** What it shows or does, in a few words. */
  says: string;
}

/** The flags of every command that loads skills the way an agent does (through `AgentContext.create`). */
const LOADING: readonly FlagName[] = [
  "cwd",
  "user",
  "no-user",
  "trust",
  "model",
  "emulate",
  "root-marker",
  "skills",
  "json",
];

/** Every command of the CLI, in help order. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  {
    name: "list",
    summary: "list every skill and guidance file an agent in --cwd sees: trigger, who may invoke it, description",
    usage:
      "skillctx list [--cwd DIR] [--user | --no-user] [--trust] [--model MODEL] [--skills PATH]... [--tokens] [--wide] [--json]",
    flags: [...LOADING, "tokens", "wide"],
    positionals: false,
    notes: [
      "Each skill is a line with its name, trigger and who may invoke it, then its description, wrapped (two lines at most). INVOKE says who may invoke a skill: the model (load_skill), the user (/name, or @name for a Cursor manual rule), both, or - (guidance, always on). ARGS is its argument-hint.",
      "A column with the same value on every row (SCOPE: project) is left out and said once at the end. --wide shows one row per skill with every column, the path and the whole description. Piped, the text is laid out for 80 columns whatever the terminal; --json is the contract for scripts.",
      "Diagnostics go to stderr, repeats of one code grouped, then a count of errors, warnings and info; the exit code is 1 when one of them is an error.",
    ],
    examples: [
      {
        run: "skillctx list --cwd ~/src/app",
        says: "every skill and guidance file an agent working in ~/src/app sees",
      },
      {
        run: "skillctx list --no-user --tokens",
        says: "the project's skills only, with the tokens each body costs when loaded",
      },
      { run: "skillctx list --json | jq '.skills[].name'", says: "the names, from the JSON document" },
    ],
  },
  {
    name: "catalog",
    summary:
      "print the skill catalog the model sees in the system prompt (the one build puts there), with its token count",
    usage:
      "skillctx catalog [--cwd DIR] [--user | --no-user] [--trust] [--model MODEL] [--skills PATH]... [--format xml|markdown] [--budget TOKENS] [--json]",
    flags: [...LOADING, "format", "budget"],
    positionals: false,
    notes: [
      "The catalog goes to stdout as is, so it can be piped; its token count, degradation level and listed / left-out counts go to stderr.",
    ],
    examples: [
      {
        run: "skillctx catalog --cwd ~/src/app > catalog.xml",
        says: "the catalog alone in a file (its token count goes to stderr)",
      },
      {
        run: "skillctx catalog --format markdown --budget 500",
        says: "the markdown catalog, shortened to fit 500 tokens",
      },
    ],
  },
  {
    name: "build",
    summary:
      "play messages as user turns and print each step's activations, then the final system prompt, messages and tools",
    usage:
      "skillctx build [--cwd DIR] [--user | --no-user] [--trust] [--model MODEL] [--skills PATH]... [--format xml|markdown] [--budget TOKENS] [-m TEXT]... [--json]",
    flags: [...LOADING, "format", "budget", "message"],
    positionals: false,
    notes: ["Ctrl-C stops the commands and MCP servers that are running, and exits 130."],
    examples: [
      {
        run: 'skillctx build -m "fill the tax form"',
        says: "what the first user turn activates, then the system prompt, messages and tools",
      },
      {
        run: 'skillctx build -m "/deploy staging" -m "and now prod" --json',
        says: "two turns, a slash command first, as one JSON document",
      },
    ],
  },
  {
    name: "context",
    summary:
      "show what the agent gets as a breakdown: system prompt parts, tool definitions and attached knowledge, with tokens and shares of the window",
    usage:
      "skillctx context [--cwd DIR] [--user | --no-user] [--trust] [--model MODEL] [--skills PATH]... [--system-prompt FILE] [-m TEXT]... [--touch PATH]... [--window TOKENS] [--json]",
    flags: [...LOADING, "format", "budget", "message", "touch", "window", "system-prompt"],
    positionals: false,
    notes: [
      "Each part is counted alone with the project's counter (o200k_base): the host prompt, each guidance file, the catalog and the labels and notes around them; each tool definition as JSON; each skill's text attached to the messages, and the conversation's own text. The total is their sum, so the shares add up to it.",
      "-m plays user messages, then --touch plays a tool call that read PATH (relative to --cwd), so path rules and nested AGENTS.md files show as attachments.",
    ],
    examples: [
      { run: "skillctx context", says: "what an agent in the current folder starts with, as a bar chart" },
      {
        run: "skillctx context --touch packages/api/src/index.ts --window 1m",
        says: "the same after reading a file in packages/api, as shares of a 1M-token window",
      },
      { run: "skillctx context --json | jq '.data.parts'", says: "every part with its tokens and share" },
    ],
  },
  {
    name: "render",
    summary: "print a skill file's body with its !`cmd` spans rendered (run only with --trust)",
    usage: "skillctx render FILE [--cwd DIR] [--trust] [--json]",
    flags: ["cwd", "trust", "json"],
    positionals: true,
    notes: ["FILE is read as a project file: without --trust each !`cmd` is shown as not run. Commands run in --cwd."],
    examples: [
      { run: "skillctx render .agents/skills/deploy/SKILL.md", says: "the body, each !`cmd` shown as not run" },
      {
        run: "skillctx render --trust .agents/skills/deploy/SKILL.md",
        says: "the body with its commands run in --cwd",
      },
    ],
  },
  {
    name: "validate",
    summary: "validate skill folders (or folders of skill folders) against the Agent Skills specification",
    usage: "skillctx validate [PATH...] [--cwd DIR] [--strict] [--json]",
    flags: ["cwd", "strict", "json"],
    positionals: true,
    notes: [
      "PATH (relative to --cwd; default: --cwd itself) is a skill folder, its SKILL.md, or a folder searched for skill folders as list finds them: to depth 4, and in the project skill folders it holds (.agents/skills, .claude/skills, ...). Symlinks inside the project are followed; one that leaves it is not read.",
      "Without --strict, what list loads with a warning (no name, a name that is not the spec's or its folder's, extra fields, a value Codex repairs) is a warning; --strict keeps the reference validator's errors. A PATH that does not exist or holds no skill is an error and checks nothing.",
      "Findings are this command's data: they go to stdout, one line each, as list prints them (repeats of one code grouped), then a count of errors, warnings and info. Exit 1 when a skill is invalid.",
    ],
    examples: [
      {
        run: "skillctx validate .agents/skills",
        says: "every skill folder below .agents/skills, checked against the specification",
      },
      {
        run: "skillctx validate --strict my-skill/SKILL.md",
        says: "one skill, with the reference validator's verdicts exactly",
      },
    ],
  },
  {
    name: "search",
    summary: "rank the skills an agent in --cwd sees for a request, as search_skills does, with the words that matched",
    usage:
      'skillctx search "REQUEST" [--cwd DIR] [--user | --no-user] [--model MODEL] [--skills PATH]... [--explain] [--json]',
    flags: ["cwd", "user", "no-user", "model", "skills", "explain", "json"],
    positionals: true,
    notes: [
      "Skills at or above the cut-off are what search_skills returns; those below it are shown after a line, for authors: a description the request should reach but does not needs the request's words.",
    ],
    examples: [
      {
        run: 'skillctx search "the build is failing on CI"',
        says: "the skills search_skills would return for that request, best first",
      },
      {
        run: 'skillctx search "fill in a PDF form" --explain',
        says: "the same ranking with each matched word and the field it matched in",
      },
    ],
  },
  {
    name: "sync",
    summary:
      "fetch the remote skill sources listed in skills.json (git, well-known URL, MCP) and record them in skills.lock.json",
    usage: "skillctx sync [--cwd DIR] [--frozen] [--offline] [--trust] [--json]",
    flags: ["cwd", "frozen", "offline", "trust", "json"],
    positionals: false,
    notes: [
      'skills.json at --cwd lists the sources: { "sources": [ { "git": URL, "ref": REF, "path": DIR }, { "url": URL } ] }. Fetched copies go to $XDG_CACHE_HOME/skillctx (or ~/.cache/skillctx).',
      "Without --frozen the lock is written (entries of sources no longer listed are removed). With --frozen nothing is written: a source missing from the lock or drifted from it is refused, exit 1.",
      "An { mcp } source whose config has a command starts that program only with --trust (skills.json is repository content, as .mcp.json is).",
    ],
    examples: [
      { run: "skillctx sync", says: "fetch the sources of skills.json and write skills.lock.json" },
      {
        run: "skillctx sync --frozen --offline",
        says: "in CI: check the lock against the cache, never touch the network",
      },
    ],
  },
  {
    name: "serve",
    summary:
      "serve the skills an agent in --cwd sees over MCP (skills extension SEP-2640, plus load_skill / read_skill_resource tools)",
    usage:
      "skillctx serve [--cwd DIR] [--user | --no-user] [--model MODEL] [--skills PATH]... [--no-watch] [--ttl-ms MS] [--stdio | --http PORT [--host HOST] [--allow-host NAME]... [--token-file FILE | --token-env NAME] [--sessions]]",
    flags: [
      "cwd",
      "user",
      "no-user",
      "model",
      "skills",
      "no-watch",
      "ttl-ms",
      "stdio",
      "http",
      "host",
      "allow-host",
      "token-file",
      "token-env",
      "sessions",
      "public-url",
      "authorization-server",
    ],
    positionals: false,
    notes: [
      "Only SKILL.md folders are served, as text: nothing in them runs (no !`cmd` rendering, no scripts). What is not served, and why, goes to stderr.",
      "--http binds to 127.0.0.1 unless --host says otherwise; the endpoint's URL goes to stderr, then one line per request (method, path, status, ms). GET /healthz answers 200 while serving, without a token.",
      "The skill folders are watched: skills/list serves the new files and digests within about a second of a change.",
      "SIGTERM or Ctrl-C drains: new requests get 503, requests in flight finish (up to 5 s), then the process exits.",
    ],
    examples: [
      {
        run: "skillctx serve --stdio",
        says: "serve the skills of the current folder to an MCP client that starts this command",
      },
      { run: "skillctx serve --http 8080 --cwd ~/src/app", says: "serve them at http://127.0.0.1:8080/mcp" },
    ],
  },
];

/** The command called `name`; for a command module to read its own flags. */
export function commandSpec(name: string): CommandSpec {
  const found = COMMAND_SPECS.find((command) => command.name === name);
  if (found === undefined) throw new Error(`no command ${name}`);
  return found;
}
