/**
 * `execute_skill { name, request }` (haiku.skills): runs a skill as a sub-agent in a fresh conversation
 * through the host's model loop (`subAgents.run`), and answers with the sub-agent's final text. Also how
 * a Claude Code `context: fork` skill runs: the load tools point the model here instead of loading it.
 */
import { untilAborted } from "../code/abortable.js";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Skill } from "@skillctx/core";
import { diagnostic, promptQuote } from "@skillctx/core";
import { lazySchemas } from "@skillctx/core/internal";
import { MAX_SUB_AGENTS_AT_ONCE } from "../limits.js";
import type { z } from "@skillctx/core/internal";
import { capTextUtf8Bytes } from "@skillctx/core/internal";
import { codeToolsForSkill, runCodeTool } from "../code/code-tools.js";
import type { SubAgentResponse, SubAgentTool } from "../code/sub-agent-types.js";
import type { ToolResult } from "../context-types.js";
import { compileAllowedTools } from "./allowed-tools.js";
import { hostToolDefinition, runHostTool } from "./host-tools.js";
import type { HostTool } from "./host-tools.js";
import { renderLoadedBody } from "./load-skill.js";
import { formatResource, readSkillResource } from "./read-skill-resource.js";
import { runSkillScript } from "./run-skill-script.js";
import type { SkillToolHost } from "./skill-tools.js";
import { loadableSkillNames, skillNameArg, unknownSkillMessage } from "./skill-tools.js";
import { notLoadableReason, skillFolder } from "../tool-kit/skill-folder.js";
import { lineNumber, parseToolArgs, toolInputSchema } from "../tool-kit/tool-args.js";
import { fail, ok } from "../tool-kit/tool-result.js";
import { EXECUTE_SKILL_TOOL } from "./skill-tool-constants.js";
import { isForkSkill } from "./sub-agent-support.js";
import type { SubAgentSupport } from "./sub-agent-support.js";
import { errorText } from "@skillctx/core/internal";

/**
 * What the load tools answer for a `context: fork` skill when the host runs sub-agents: the skill is
 * not loaded into this conversation; the model runs it with `execute_skill`. Undefined for any other
 * skill, or without sub-agents (a fork skill then loads inline, as in an agent without sub-agents).
 */
export function forkedLoad(host: SkillToolHost, written: string): ToolResult | undefined {
  if (host.subAgents === undefined) return undefined;
  const skill = host.skills.byName.get(skillNameArg(written));
  if (skill === undefined || !isForkSkill(skill) || notLoadableReason(skill) !== undefined) return undefined;
  return ok(
    `The skill ${promptQuote(skill.name)} runs as a sub-agent in a context of its own (context: fork); its instructions are not loaded here. ` +
      `Call ${EXECUTE_SKILL_TOOL} { "name": ${JSON.stringify(skill.name)}, "request": "<the task, with its arguments>" } and use its answer.`,
  );
}

/**
 * Runs skill `written` (trimmed) as a sub-agent on `request`. The skill must be one the model may load.
 * Failures of the runner, a run that reaches its step limit and an empty answer are error results;
 * aborting `signal` (the parent's call, or `close()`) cancels the run and rejects, even when the runner
 * ignores its signal.
 */
export async function executeSkill(
  host: SkillToolHost,
  written: string,
  request: string,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const support = host.subAgents;
  if (support === undefined) return fail(`${EXECUTE_SKILL_TOOL} is not available: this agent runs no sub-agents.`);
  const name = skillNameArg(written);
  const skill = host.skills.byName.get(name);
  if (skill === undefined) return fail(unknownSkillMessage(name, loadableSkillNames(host.skills)));
  const refusal = notLoadableReason(skill);
  if (refusal !== undefined) return fail(`Cannot execute: ${refusal}.`);
  // A runner that calls back into execute_skill recurses through here: the count bounds it.
  if (support.running >= MAX_SUB_AGENTS_AT_ONCE) {
    return fail(
      `Cannot execute "${skill.name}": ${MAX_SUB_AGENTS_AT_ONCE} sub-agents are already running in this conversation (a sub-agent cannot start more).`,
    );
  }
  const own = signal ?? new AbortController().signal;
  support.running++;
  try {
    return await runSkill(host, support, skill, request, own);
  } catch (error) {
    if (own.aborted) throw error;
    return fail(`The sub-agent running "${skill.name}" failed: ${errorText(error)}`);
  } finally {
    support.running--;
  }
}

// ---------------------------------------------------------------------------------------------

async function runSkill(
  host: SkillToolHost,
  support: SubAgentSupport,
  skill: Skill,
  request: string,
  signal: AbortSignal,
): Promise<ToolResult> {
  const fork = isForkSkill(skill);
  // A fork skill's body is the sub-agent's task (Claude Code), the request its arguments; any other
  // skill's body is the sub-agent's system prompt and the request its task (haiku.skills).
  const rendered = await renderLoadedBody(host, skill, signal, fork ? request : undefined);
  if ("error" in rendered) return fail(`Cannot execute "${skill.name}": ${rendered.error}`);
  const tools = await subAgentTools(host, support, skill, signal);
  const intro = instructions(skill, tools);
  const response = await untilAborted(
    support.run({
      system: fork ? intro : `${intro}\n\n${rendered.body}`,
      messages: [{ role: "user", content: fork ? rendered.body.trim() : request }],
      tools,
      model: modelOf(skill) ?? support.model,
      maxSteps: support.maxSteps,
      signal,
    }),
    signal,
  );
  return answer(host, support, skill, response);
}

function instructions(skill: Skill, tools: readonly SubAgentTool[]): string {
  const toolsLine =
    tools.length === 0 ? "You have no tools." : `Your tools: ${tools.map((tool) => tool.name).join(", ")}.`;
  return [
    `You are a sub-agent running the skill ${promptQuote(skill.name)} for another agent, in a conversation of your own.`,
    `${toolsLine} You cannot ask questions back: work with what you were given.`,
    "When you are done, reply with the final result only; that reply is returned to the agent that called you.",
  ].join(" ");
}

// Claude Code's `model: inherit` means the parent's model, which is what no model means here.
function modelOf(skill: Skill): string | undefined {
  const model = skill.model?.trim();
  return model === undefined || model === "" || model === "inherit" ? undefined : model;
}

function answer(host: SkillToolHost, support: SubAgentSupport, skill: Skill, response: SubAgentResponse): ToolResult {
  const text =
    typeof response === "object" && response !== null && typeof response.text === "string"
      ? response.text.trim()
      : undefined;
  const who = `The sub-agent running "${skill.name}"`;
  if (text === undefined) return fail(`${who} returned no answer (the runner gave no text).`);
  if (response.stepLimitReached === true) {
    const last = text === "" ? "" : ` Its last reply: ${cap(host, support, skill, text)}`;
    return fail(`${who} stopped at its step limit (${support.maxSteps} model calls) before it finished.${last}`);
  }
  if (text === "") return fail(`${who} finished without an answer.`);
  return ok(cap(host, support, skill, text));
}

function cap(host: SkillToolHost, support: SubAgentSupport, skill: Skill, text: string): string {
  const max = support.maxAnswerBytes;
  const capped = capTextUtf8Bytes(
    text,
    max,
    (kept, size) =>
      `[skillctx: the sub-agent's answer is cut here: ${kept} of its ${size} bytes are shown (limit ${max}).]`,
  );
  if (capped.cut) {
    host.diagnostic(
      diagnostic(
        "SUB_AGENT_ANSWER_CUT",
        "warning",
        `the answer of the sub-agent running "${skill.name}" (${capped.size} bytes) is over subAgent.maxAnswerBytes (${max}); only its first part reaches the model`,
        {
          path: skill.source.path,
        },
      ),
    );
  }
  return capped.text;
}

/**
 * The sub-agent's tools: the skill's code tools under their own names, `read_skill_resource` and
 * `run_skill_script` for its folder (without the `name` argument), then the host tools its
 * `allowed-tools` permit (a `context: fork` skill without allowed-tools gets every host tool, as Claude
 * Code's general-purpose agent does; any other skill without it gets none). Never `execute_skill`.
 */
async function subAgentTools(
  host: SkillToolHost,
  support: SubAgentSupport,
  skill: Skill,
  signal: AbortSignal,
): Promise<SubAgentTool[]> {
  const tools: SubAgentTool[] = [];
  const taken = new Set<string>([EXECUTE_SKILL_TOOL]);
  const add = (tool: SubAgentTool) => {
    if (!taken.has(tool.name)) {
      taken.add(tool.name);
      tools.push(tool);
      return;
    }
    host.diagnostic(
      diagnostic(
        "TOOL_NAME_CLASH",
        "warning",
        `the sub-agent of "${skill.name}" gets no tool "${tool.name}": an earlier tool has that name`,
        { path: skill.source.path },
      ),
    );
  };
  // Each call commits its state through the store and emits `state.delta`, as a call of the parent's does.
  for (const tool of await codeToolsForSkill(skill, host, signal)) {
    add({
      name: tool.localName,
      description: tool.description,
      inputSchema: tool.inputSchema,
      execute: (args, options) =>
        support.inTurn(options.signal, (linked) => runCodeTool(tool, args, host, { signal: linked })),
    });
  }
  const dir = skillFolder(skill);
  if (dir !== undefined) {
    add(
      folderTool(
        "read_skill_resource",
        folderSchemas().read,
        "Read a text file of your skill's folder by its relative path; optionally a line range.",
        async (args, s) => {
          const outcome = await readSkillResource(host, { name: skill.name, ...args }, s);
          return outcome.ok ? ok(formatResource(outcome)) : fail(outcome.message);
        },
      ),
    );
    if (await isFolder(path.join(dir, "scripts"))) {
      add(
        folderTool(
          "run_skill_script",
          folderSchemas().run,
          "Run a script of your skill's scripts/ folder with optional arguments; returns its output and exit status.",
          (args, s) => runSkillScript(host, { name: skill.name, ...args }, s),
        ),
      );
    }
  }
  for (const tool of allowedHostTools(skill, support.hostTools)) {
    add({ ...hostToolDefinition(tool), execute: (args, options) => runHostTool(tool, args, options.signal) });
  }
  return tools;
}

/** The argument schemas of the sub-agent's folder tools, built on first need (zod loads then). */
const folderSchemas = lazySchemas((z) => ({
  read: z.object({
    path: z.string().describe("The file's path relative to the skill folder, such as references/guide.md."),
    startLine: lineNumber(z).optional().describe("First line to read (1-based)."),
    endLine: lineNumber(z).optional().describe("Last line to read (inclusive)."),
  }),
  run: z.object({
    script: z.string().describe("The script under scripts/, such as scripts/extract.py."),
    args: z.array(z.string()).optional().describe("Command-line arguments."),
  }),
}));

function folderTool<T>(
  name: string,
  schema: z.ZodType<T>,
  description: string,
  run: (args: T, signal: AbortSignal) => Promise<ToolResult>,
): SubAgentTool {
  return {
    name,
    description,
    inputSchema: toolInputSchema(schema),
    async execute(args, options) {
      const parsed = parseToolArgs(name, schema, args);
      return parsed.ok ? run(parsed.value, options.signal) : parsed.result;
    },
  };
}

function allowedHostTools(skill: Skill, hostTools: readonly HostTool[]): readonly HostTool[] {
  if (skill.allowedTools === undefined) return isForkSkill(skill) ? hostTools : [];
  const allowed = compileAllowedTools(skill.allowedTools);
  return hostTools.filter((tool) => allowed.allows(tool.name));
}

async function isFolder(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
