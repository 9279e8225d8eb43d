import type { CliCommand } from "./io.js";

/**
 * Every command of the CLI, by name. Each lives in its own file under `cli/` and is loaded only
 * when it runs, so `skillctx validate` does not pay for the engine, MCP or rendering.
 */
export const commands: Record<string, () => Promise<CliCommand>> = {
  build: async () => (await import("./build.js")).buildCommand,
  catalog: async () => (await import("./catalog.js")).catalogCommand,
  list: async () => (await import("./list.js")).listCommand,
  render: async () => (await import("./render.js")).renderCommand,
  validate: async () => (await import("./validate.js")).validateCommand,
};
