import type { SkillSet, ToolDefinition, ToolResult } from "../context-types.js";
import type { SkillToolHost } from "./skill-tools.js";

/** The naming of the skill tools: skillctx's own, or that of a framework the team comes from. */
export type ToolsetName = "skillctx" | "strands" | "openhands" | "langflow" | "claude";

/** One skill tool: what the model sees and what a call does. */
export interface SkillTool {
  definition: ToolDefinition;
  /** Runs the tool; bad arguments are error results, never exceptions. */
  call(args: unknown, host: SkillToolHost, signal: AbortSignal | undefined): Promise<ToolResult>;
}

/** A set of skill tools under one framework's names and argument shapes. */
export interface Toolset {
  readonly name: ToolsetName;
  /** How the catalog's intro line names the way to load a skill, e.g. `the load_skill tool`. */
  readonly loadInstruction: string;
  /** How the model deactivates the active skill `name`, for refusal messages. */
  unloadInstruction(name: string): string;
  /**
   * The toolset's tools for a skill set (a description may name the skills); with `subAgents` (the host
   * gave `subAgents.run`), `execute_skill` too.
   */
  tools(skills: SkillSet, features?: ToolsetFeatures): SkillTool[];
}

/** What the context supports beyond the basic skill tools. */
export interface ToolsetFeatures {
  /** The host runs sub-agents (`subAgents.run`): `execute_skill` is offered. */
  subAgents?: boolean;
}
