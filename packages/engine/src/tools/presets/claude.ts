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

/** Claude Code's `Skill { skill }`. */
const skillTool = defineSkillTool({
  name: "Skill",
  description:
    "Execute a skill within the main conversation: returns the skill's full instructions. Use it immediately when a task matches " +
    "a skill listed in the system prompt.",
  schema: (z) => z.object({ skill: skillName(z).describe('The skill name, such as "pdf".') }),
  run: (args, host, signal) => loadAsText(host, args.skill, signal),
});

/** The Claude Code naming: `Skill { skill }`; resources, scripts and unloading keep skillctx's names. */
export const claudeToolset: Toolset = {
  name: "claude",
  loadInstruction: "the Skill tool",
  unloadInstruction: (name) => `call ${UNLOAD_TOOL} { "name": "${name}" }`,
  tools: (_skills, features) => withSubAgents([skillTool, readResourceTool, runScriptTool, unloadTool], features),
};
