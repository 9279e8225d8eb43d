import type { Toolset } from "../toolset.js";
import {
  defineSkillTool,
  skillName,
  loadAsText,
  readResourceTool,
  runScriptTool,
  unloadTool,
  UNLOAD_TOOL,
  withSubAgents,
} from "./common.js";

const loadTool = defineSkillTool({
  name: "load_skill",
  description:
    "Load a skill's full instructions by name, from the skill catalog in the system prompt. Call it when a task matches a skill's " +
    "description, before acting. The loaded skill becomes the active one; the result lists its files.",
  schema: (z) => z.object({ name: skillName(z).describe("The skill's name, as listed in the catalog.") }),
  run: (args, host, signal) => loadAsText(host, args.name, signal),
});

/** skillctx's own tools: `load_skill`, `read_skill_resource`, `run_skill_script`, `unload_skill`; `execute_skill` with sub-agents. */
export const skillctxToolset: Toolset = {
  name: "skillctx",
  loadInstruction: "the load_skill tool",
  unloadInstruction: (name) => `call ${UNLOAD_TOOL} { "name": "${name}" }`,
  tools: (_skills, features) => withSubAgents([loadTool, readResourceTool, runScriptTool, unloadTool], features),
};
