import { EXIT_OK, EXIT_USAGE, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { commands } from "./commands.js";

/** Runs the `skillctx` CLI with `argv` (without node and the script) and returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(await help());
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (load === undefined) {
    io.stderr.write(`skillctx: unknown command '${name}'\n\n${await help()}`);
    return EXIT_USAGE;
  }
  const command = await load();
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.stderr.write(`skillctx ${name}: ${(error as Error).message}\nusage: ${command.usage}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

async function help(): Promise<string> {
  const names = Object.keys(commands).sort();
  const loaded: CliCommand[] = await Promise.all(names.map((n) => commands[n]!()));
  const width = Math.max(...names.map((n) => n.length));
  const lines = names.map((n, i) => `  ${n.padEnd(width)}  ${loaded[i]!.summary}`);
  return `usage: skillctx <command> [options]\n\ncommands:\n${lines.join("\n")}\n`;
}

// node:util parseArgs throws TypeErrors with these codes for unknown or malformed options.
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
}
