import type { LoadResultNames } from "../load-skill.js";
import { DEFAULT_SEARCH_LIMIT, EXECUTE_SKILL_TOOL } from "../skill-tool-constants.js";
import type { SkillToolHost } from "../skill-tools.js";
import { skillNameArg } from "../skill-tools.js";
import { defineSkillTool } from "../define-skill-tool.js";
import { lineNumber, skillName } from "../../tool-kit/tool-args.js";
import type { ToolResult } from "../tool-provider.js";
import { fail, ok } from "../../tool-kit/tool-result.js";
import type { SkillTool, ToolsetFeatures } from "../toolset.js";

export { defineSkillTool } from "../define-skill-tool.js";
export { skillName } from "../../tool-kit/tool-args.js";

/** Tool names of the operations every toolset offers under skillctx's names. */
export const READ_TOOL = "read_skill_resource";
export const RUN_TOOL = "run_skill_script";
export const UNLOAD_TOOL = "unload_skill";
export const SEARCH_TOOL = "search_skills";

/**
 * The code behind the calls, imported on the first call: the definitions here are what `toolsets` (a
 * `skillctx` export) holds, and importing `skillctx` compiles none of the tools' code (tool-runs.ts).
 */
let runs: Promise<typeof import("../tool-runs.js")> | undefined;
export const toolRuns = (): Promise<typeof import("../tool-runs.js")> => (runs ??= import("../tool-runs.js"));

export const SKILLCTX_RESULT_NAMES: LoadResultNames = { read: READ_TOOL, run: RUN_TOOL };

/**
 * Loads a skill and answers with the `<skill-loaded>` text, or an error result. A `context: fork` skill,
 * when the host runs sub-agents, is not loaded: the answer points to `execute_skill`.
 */
export async function loadAsText(
  host: SkillToolHost,
  name: string,
  signal: AbortSignal | undefined,
  names: LoadResultNames = SKILLCTX_RESULT_NAMES,
): Promise<ToolResult> {
  const { forkedLoad, formatLoadedSkill, loadSkill } = await toolRuns();
  const forked = forkedLoad(host, name);
  if (forked !== undefined) return forked;
  const outcome = await loadSkill(host, name, signal);
  return outcome.ok ? ok(formatLoadedSkill(outcome.loaded, names, host.toolFilter)) : fail(outcome.message);
}

/**
 * Deactivates `name` (trimmed): its MCP tools are withdrawn. Unloading a skill that is not active is
 * harmless, unloading another one's name is an error.
 */
export function unload(host: SkillToolHost, written: string, done: (name: string) => string): ToolResult {
  const name = skillNameArg(written);
  const active = host.state.activeSkill;
  if (active === name) {
    host.state.deactivate();
    return ok(done(name));
  }
  if (active === undefined) return ok(`No skill is active; "${name}" was not loaded.`);
  return fail(`"${name}" is not the active skill; the active skill is "${active}".`);
}

export const readResourceTool: SkillTool = defineSkillTool({
  name: READ_TOOL,
  description:
    "Read a text file from a skill's folder (references, examples, templates), by the skill's name and the file's path relative to its folder. " +
    "Optionally a line range. Loading a skill lists its files.",
  schema: (z) =>
    z.object({
      name: skillName(z).describe("The skill's name."),
      path: z.string().describe("The file's path relative to the skill folder, such as references/guide.md."),
      startLine: lineNumber(z).optional().describe("First line to read (1-based)."),
      endLine: lineNumber(z).optional().describe("Last line to read (inclusive)."),
    }),
  async run(args, host, signal) {
    const { formatResource, readSkillResource } = await toolRuns();
    const outcome = await readSkillResource(host, args, signal);
    return outcome.ok ? ok(formatResource(outcome)) : fail(outcome.message);
  },
});

export const runScriptTool: SkillTool = defineSkillTool({
  name: RUN_TOOL,
  description:
    "Run a script from a skill's scripts/ folder with optional command-line arguments; the working directory is the skill folder. " +
    "Returns the script's output and exit status.",
  schema: (z) =>
    z.object({
      name: skillName(z).describe("The skill's name."),
      script: z.string().describe("The script under scripts/, such as scripts/extract.py."),
      args: z.array(z.string()).optional().describe("Command-line arguments."),
    }),
  run: async (args, host, signal) => (await toolRuns()).runSkillScript(host, args, signal),
});

export const unloadTool: SkillTool = defineSkillTool({
  name: UNLOAD_TOOL,
  description: "Deactivate the active skill when its task is done; every tool becomes available again.",
  schema: (z) => z.object({ name: skillName(z).describe("The active skill's name.") }),
  run: async (args, host) =>
    unload(host, args.name, (name) => `Skill "${name}" unloaded; all tools are available again.`),
});

/**
 * `search_skills`: listed when the catalog left skills out to fit its budget, or in every step with
 * `catalog.search.tool: "always"` (then `catalogComplete`: the description and the empty answer say so).
 */
export function searchTool(loadInstruction: string, catalogComplete = false): SkillTool {
  return defineSkillTool({
    name: SEARCH_TOOL,
    description: catalogComplete
      ? "Search the skills by words from the task: name, description and what each skill's instructions cover. Returns the best matches, or says that none matches."
      : "Search the skills that are not listed in the catalog, by words from the task. Returns the best matches with their descriptions.",
    schema: (z) =>
      z.object({
        query: z.string().describe("Words describing the task, such as 'fill pdf form'."),
        limit: z.number().int().min(1).max(50).optional().describe(`Most results. Default ${DEFAULT_SEARCH_LIMIT}.`),
      }),
    async run(args, host, signal) {
      const results = await host.search.search(host.skills, args.query, args.limit ?? DEFAULT_SEARCH_LIMIT, signal);
      const { formatSearchResults } = await toolRuns();
      return ok(formatSearchResults(args.query, results, loadInstruction, catalogComplete));
    },
  });
}

/** `execute_skill { name, request }`, offered only when the host runs sub-agents (`subAgents.run`). */
const executeSkillTool: SkillTool = defineSkillTool({
  name: EXECUTE_SKILL_TOOL,
  description:
    "Run a skill as a sub-agent: it works on the request in a fresh conversation with the skill's instructions and tools, " +
    "and returns its final answer. Use it when a task matches a skill in the catalog and only the result matters here.",
  schema: (z) =>
    z.object({
      name: z.string().trim().min(1).describe("The skill's name, as listed in the catalog."),
      request: z
        .string()
        .trim()
        .min(1)
        .describe("The task for the sub-agent, with everything it needs: it does not see this conversation."),
    }),
  run: async (args, host, signal) => (await toolRuns()).executeSkill(host, args.name, args.request, signal),
});

/** `tools` followed by `execute_skill` when the host runs sub-agents (haiku.skills' name in every toolset). */
export function withSubAgents(tools: SkillTool[], features: ToolsetFeatures | undefined): SkillTool[] {
  if (features?.subAgents === true) tools.push(executeSkillTool);
  return tools;
}
