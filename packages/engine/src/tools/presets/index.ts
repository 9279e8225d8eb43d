import { invalidOption } from "@skillctx/core/internal";
import type { Toolset, ToolsetName } from "../toolset.js";
import { claudeToolset } from "./claude.js";
import { langflowToolset } from "./langflow.js";
import { openhandsToolset } from "./openhands.js";
import { skillctxToolset } from "./skillctx.js";
import { strandsToolset } from "./strands.js";

/** Every toolset, by name. */
export const toolsets: Readonly<Record<ToolsetName, Toolset>> = {
  skillctx: skillctxToolset,
  strands: strandsToolset,
  openhands: openhandsToolset,
  langflow: langflowToolset,
  claude: claudeToolset,
};

/**
 * The toolset called `name`.
 *
 * @throws SkillctxError `INVALID_OPTIONS` for an unknown name.
 */
export function resolveToolset(name: ToolsetName | undefined): Toolset {
  const toolset = toolsets[name ?? "skillctx"];
  if (toolset === undefined || !Object.hasOwn(toolsets, name ?? "skillctx")) {
    throw invalidOption("tools.toolset", `one of ${Object.keys(toolsets).join(", ")}`, { got: { value: name } });
  }
  return toolset;
}
