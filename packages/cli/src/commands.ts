import { COMMAND_SPECS } from "./command-specs.js";
import type { CommandSpec } from "./command-specs.js";
import type { CliCommand } from "./io.js";

/** A command of the CLI: everything help prints, and how to load the code that runs it. */
export interface CommandInfo extends CommandSpec {
  /** The command's module, imported only when it runs. */
  load(): Promise<CliCommand>;
}

// Each command's module, imported only when it runs (the modules read their flags from command-specs.ts, never from here).
const LOADERS: Readonly<Record<string, () => Promise<CliCommand>>> = {
  list: async () => (await import("./list.js")).listCommand,
  catalog: async () => (await import("./catalog.js")).catalogCommand,
  build: async () => (await import("./build.js")).buildCommand,
  context: async () => (await import("./context.js")).contextCommand,
  render: async () => (await import("./render.js")).renderCommand,
  validate: async () => (await import("./validate.js")).validateCommand,
  search: async () => (await import("./search.js")).searchCommand,
  sync: async () => (await import("./sync.js")).syncCommand,
  serve: async () => (await import("./serve.js")).serveCommand,
};

/**
 * Every command of the CLI, in help order. This table is static on purpose: `skillctx --help` and
 * `skillctx help <command>` print from it without importing any command (and so no engine, tokenizer
 * or YAML parser); a command's own module is imported only when it runs.
 */
export const COMMANDS: readonly CommandInfo[] = COMMAND_SPECS.map((spec) => ({ ...spec, load: LOADERS[spec.name]! }));

/** The command called `name`, if any. */
export function findCommand(name: string): CommandInfo | undefined {
  return COMMANDS.find((command) => command.name === name);
}
