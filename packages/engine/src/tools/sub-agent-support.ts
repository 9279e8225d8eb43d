/**
 * What a context knows of sub-agents before any runs: the `subAgents` option, its check, and which calls run
 * beside steps. The code that runs a sub-agent (`execute-skill.ts`) is reached through the tools' calls only.
 */
import { checkPositiveInteger, invalidOption, isNonEmptyString } from "@skillctx/core/internal";
import type { Skill } from "@skillctx/core";
import { DEFAULT_MAX_SUB_AGENT_ANSWER_BYTES, DEFAULT_SUB_AGENT_MAX_STEPS } from "../limits.js";
import type { RunSubAgent } from "../code/sub-agent-types.js";
import type { HostTool } from "./host-tools.js";
import { EXECUTE_SKILL_TOOL } from "./skill-tool-constants.js";

/** The settings of sub-agents: the fields of `AgentContext.create`'s `subAgents` option beside `run`. */
export interface SubAgentSettings {
  /** Most model calls of one sub-agent run; past it the call is an error result. @default 10 */
  maxSteps?: number;
  /** The model id a sub-agent uses when its skill names none (`model:`). @default the runner's default */
  model?: string;
  /** UTF-8 bytes of a sub-agent's answer returned to the parent; a longer answer is cut with a note. @default 65536 */
  maxAnswerBytes?: number;
}

/** What `execute_skill` needs from its context beside the skill tools' host (made by {@link createSubAgentSupport}). */
export interface SubAgentSupport {
  readonly run: RunSubAgent;
  readonly maxSteps: number;
  readonly model: string | undefined;
  readonly maxAnswerBytes: number;
  readonly hostTools: readonly HostTool[];
  /**
   * Runs `operation` in the context's turn (after the steps and state-changing calls asked for before
   * it), as the parent's calls of code tools run: a sub-agent's code tools change state too.
   */
  inTurn<T>(signal: AbortSignal, operation: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Sub-agents running now in this context. */
  running: number;
}

/**
 * Checks the sub-agent options and makes the context's {@link SubAgentSupport}.
 *
 * @throws SkillctxError `INVALID_OPTIONS` when `subAgents.run` is not a function, or for a bad `subAgents`.
 */
export function createSubAgentSupport(options: {
  run: unknown;
  settings: SubAgentSettings | undefined;
  hostTools: readonly HostTool[];
  inTurn: SubAgentSupport["inTurn"];
}): SubAgentSupport {
  if (typeof options.run !== "function")
    throw invalidOption(
      "subAgents.run",
      "a function ({ system, messages, tools, model, maxSteps, signal }) => { text, messages }",
    );
  const settings: unknown = options.settings ?? {};
  if (typeof settings !== "object" || settings === null)
    throw invalidOption("subAgents", "{ run, maxSteps?, model?, maxAnswerBytes? }");
  const { maxSteps, model, maxAnswerBytes } = settings as Record<string, unknown>;
  const count = (value: unknown, name: string, fallback: number): number =>
    checkPositiveInteger(`subAgents.${name}`, value, fallback);
  if (model !== undefined && !isNonEmptyString(model)) {
    throw invalidOption("subAgents.model", "a non-empty string (a model id for runSubAgent)");
  }
  return {
    run: options.run as RunSubAgent,
    maxSteps: count(maxSteps, "maxSteps", DEFAULT_SUB_AGENT_MAX_STEPS),
    model: model as string | undefined,
    maxAnswerBytes: count(maxAnswerBytes, "maxAnswerBytes", DEFAULT_MAX_SUB_AGENT_ANSWER_BYTES),
    hostTools: options.hostTools,
    inTurn: options.inTurn,
    running: 0,
  };
}

/**
 * Whether a tool call runs beside steps rather than in the context's turn: `execute_skill` holds no
 * state of its own, and the code tools its sub-agent calls each take the turn (holding it for the whole
 * run would make them wait for it: a deadlock).
 */
export function runsBeside(name: string): boolean {
  return name === EXECUTE_SKILL_TOOL;
}

/** Whether `skill` is a Claude Code `context: fork` skill (run as a sub-agent when invoked). */
export function isForkSkill(skill: Skill): boolean {
  return skill.context?.trim() === "fork";
}
