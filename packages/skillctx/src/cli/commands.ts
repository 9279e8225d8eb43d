import { buildCommand } from "./build.js";
import { catalogCommand } from "./catalog.js";
import type { CliCommand } from "./io.js";
import { listCommand } from "./list.js";
import { renderCommand } from "./render.js";
import { validateCommand } from "./validate.js";

/**
 * Every command of the CLI, by name. Each lives in its own file under `cli/`
 * (`validate.ts`, `list.ts`, ...) and is registered here with one line.
 */
export const commands: Record<string, CliCommand> = {
  build: buildCommand,
  catalog: catalogCommand,
  list: listCommand,
  render: renderCommand,
  validate: validateCommand,
};
