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

/** OpenHands' `invoke_skill { name }`. */
const invokeTool = defineSkillTool({
  name: "invoke_skill",
  description:
    "Invoke a skill by name to receive its full instructions. Use it when the task matches a skill listed in the system prompt; " +
    "the invoked skill becomes the active one.",
  schema: (z) => z.object({ name: skillName(z).describe("The skill's name.") }),
  run: (args, host, signal) => loadAsText(host, args.name, signal),
});

/** The OpenHands SDK naming: `invoke_skill`; resources, scripts and unloading keep skillctx's names. */
export const openhandsToolset: Toolset = {
  name: "openhands",
  loadInstruction: "the invoke_skill tool",
  unloadInstruction: (name) => `call ${UNLOAD_TOOL} { "name": "${name}" }`,
  tools: (_skills, features) => withSubAgents([invokeTool, readResourceTool, runScriptTool, unloadTool], features),
};
