import type { SkillSet } from "../../context-types.js";
import { loadableSkillNames, MAX_NAMES_IN_ERROR } from "../skill-tools.js";
import type { ToolResult } from "../tool-provider.js";
import type { SkillTool, Toolset } from "../toolset.js";
import {
  defineSkillTool,
  skillName,
  runScriptTool,
  toolRuns,
  unloadTool,
  UNLOAD_TOOL,
  withSubAgents,
} from "./common.js";
import type { ToolsetFeatures } from "../toolset.js";

// Skill names written into a tool description, at most (Langflow lists them all; 10,000 would not fit).
const NAMES_IN_DESCRIPTION = 50;

function json(value: unknown, isError = false): ToolResult {
  const content = JSON.stringify(value);
  return isError ? { content, isError } : { content };
}

function namesSuffix(skills: SkillSet): string {
  const names = loadableSkillNames(skills);
  if (names.length === 0) return "";
  const shown = names.slice(0, NAMES_IN_DESCRIPTION).join(", ");
  const more =
    names.length > NAMES_IN_DESCRIPTION ? ` and ${names.length - NAMES_IN_DESCRIPTION} more (see the catalog)` : "";
  return ` Available skills: ${shown}${more}.`;
}

function langflowTools(skills: SkillSet, features?: ToolsetFeatures): SkillTool[] {
  const suffix = namesSuffix(skills);
  const load = defineSkillTool({
    name: "load_skill",
    description: `Load a skill's detailed instructions. Returns JSON with skill_name, description, instructions (plus license and compatibility when the skill has them) and available_files.${suffix}`,
    schema: (z) => z.object({ skill_name: skillName(z).describe("Name of the skill to load.") }),
    async run(args, host, signal) {
      const { forkedLoad, loadSkill, skillNotes } = await toolRuns();
      const forked = forkedLoad(host, args.skill_name);
      if (forked !== undefined)
        return json({ skill_name: args.skill_name.trim(), sub_agent: true, instructions: forked.content });
      const outcome = await loadSkill(host, args.skill_name, signal);
      if (!outcome.ok)
        return json({ error: outcome.message, available_skills: outcome.available.slice(0, MAX_NAMES_IN_ERROR) }, true);
      const { skill, body, files } = outcome.loaded;
      return json({
        skill_name: skill.name,
        description: skill.description ?? "",
        instructions: body,
        ...skillNotes(skill),
        available_files: files?.files ?? [],
        ...(files !== undefined && files.omitted > 0 && { available_files_omitted: files.omitted }),
      });
    },
  });
  const read = defineSkillTool({
    name: "read_skill_file",
    description: `Read a supporting file of a skill (see available_files in load_skill's result). Returns JSON with skill_name, filename and content.${suffix}`,
    schema: (z) =>
      z.object({
        skill_name: skillName(z).describe("Name of the skill."),
        filename: z.string().describe("The file's path relative to the skill folder, such as examples.md."),
      }),
    async run(args, host, signal) {
      const { readSkillResource } = await toolRuns();
      const outcome = await readSkillResource(host, { name: args.skill_name, path: args.filename }, signal);
      if (!outcome.ok) return json({ error: outcome.message }, true);
      return json({
        skill_name: outcome.skill,
        filename: outcome.path,
        content: outcome.text,
        ...(outcome.note !== undefined && { note: outcome.note }),
      });
    },
  });
  return withSubAgents([load, read, runScriptTool, unloadTool], features);
}

/**
 * The Langflow Deep Agent naming: `load_skill { skill_name }` and `read_skill_file { skill_name, filename }`,
 * both answering JSON (an `error` key on failure; `available_skills` for an unknown skill), with the skill
 * names in their descriptions. Scripts and unloading keep skillctx's names.
 */
export const langflowToolset: Toolset = {
  name: "langflow",
  loadInstruction: "the load_skill tool",
  unloadInstruction: (name) => `call ${UNLOAD_TOOL} { "name": "${name}" }`,
  tools: langflowTools,
};
