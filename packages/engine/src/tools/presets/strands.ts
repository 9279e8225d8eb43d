import type { Toolset } from "../toolset.js";
import {
  defineSkillTool,
  skillName,
  loadAsText,
  readResourceTool,
  runScriptTool,
  unload,
  withSubAgents,
} from "./common.js";

/** Strands' one tool: `skills { action: "activate" | "deactivate", skill_name }`. */
const skillsTool = defineSkillTool({
  name: "skills",
  description:
    'Activate or deactivate a skill. "activate" returns the skill\'s full instructions and makes it the active skill; ' +
    '"deactivate" ends it and restores every tool. Activate a skill when a task matches its description.',
  schema: (z) =>
    z.object({
      action: z.enum(["activate", "deactivate"]).describe('"activate" or "deactivate".'),
      skill_name: skillName(z).describe("Name of the skill."),
    }),
  run: async (args, host, signal) =>
    args.action === "activate"
      ? loadAsText(host, args.skill_name, signal)
      : unload(host, args.skill_name, (name) => `Deactivated skill: ${name}`),
});

/**
 * The Strands Agents `SkillsPlugin` naming: one `skills` tool with activate / deactivate. Strands has no
 * resource or script tool, so those keep skillctx's names (`read_skill_resource`, `run_skill_script`).
 */
export const strandsToolset: Toolset = {
  name: "strands",
  loadInstruction: 'the skills tool (action "activate")',
  unloadInstruction: (name) => `call skills { "action": "deactivate", "skill_name": "${name}" }`,
  tools: (_skills, features) => withSubAgents([skillsTool, readResourceTool, runScriptTool], features),
};
