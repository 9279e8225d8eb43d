import type { Skill, SkillCache, SkillInput, SkillSourceInput, Trust } from "@skillctx/core";
import type { TextLimits } from "../context-types.js";
import type { Message } from "../messages.js";
import type { McpSettings } from "./skill-servers.js";
import type { ContextState } from "./state.js";
import type { InputValues } from "./task-inputs.js";
import type { Templates } from "./templates.js";
import type { HostTool } from "../tools/host-tools.js";
import type { SkillToolSettings, ToolFilterMode } from "../tools/skill-tools.js";
import type { ToolsetName } from "../tools/toolset.js";

/** What `collectInputs` is asked when a task skill fires. */
export interface CollectInputsRequest {
  skill: Skill;
  inputs: SkillInput[];
  /** The user message that fired the skill. */
  message: Message;
  signal?: AbortSignal | undefined;
}

/**
 * The trust option's former name.
 * @deprecated Use `Trust` (from `skillctx` or `@skillctx/core`): the one trust vocabulary of every package.
 */
export type TrustOptions = Trust;

export type { TextLimits } from "../context-types.js";

/** How `` !`cmd` `` spans in skill text are rendered. */
export interface RenderSettings {
  /** Render keyword and path skills when they fire. @default true */
  onTrigger?: boolean;
  /** Per command. @default 10000 */
  timeoutMs?: number;
  /** Per command, UTF-8 bytes. @default 51200 */
  maxOutputBytes?: number;
  /** Extra environment for commands; wins over the inherited allowlist. */
  env?: Record<string, string>;
}

/** Options of {@link AgentContext.create}. */
export interface AgentContextOptions {
  /** The agent's working folder: the repository whose skills and guidance apply. */
  cwd: string;
  /** Programmatic sources (skill folders, parent folders, .md files, Skill objects); they win name clashes. */
  skills?: SkillSourceInput[];
  /** Also read the user's skill folders (`~/.agents/skills`, `~/.claude/skills`, `~/.openhands/skills`), or these folders. @default false */
  userSkills?: boolean | string[];
  /** The home folder for user skills. @default os.homedir() */
  homeDir?: string;
  /** The host's own system prompt; it comes first in `system`. */
  systemPrompt?: string;
  /** The model id (`claude-sonnet-4-5`, `gpt-4o`, ...): gates guidance written for one model family. */
  model?: string;
  /** Skill names to leave out everywhere. */
  disabled?: string[];
  /**
   * Which scopes may run commands, scripts and MCP servers; guidance may read outside the project
   * only with `user: true` given explicitly. @default { project: false, user: true }
   */
  trust?: Trust;
  render?: RenderSettings;
  /** Read repository guidance files (AGENTS.md, CLAUDE.md, .cursorrules, ...). @default true */
  guidance?: boolean | { includeNested?: boolean; maxGuidanceBytes?: number };
  /**
   * Catalog presentation in `system`. Over `budgetTokens` (o200k_base) it degrades: short descriptions,
   * then names only, then as many names as fit, and a `search_skills` tool is listed for the rest.
   */
  catalog?: { format?: "xml" | "markdown"; budgetTokens?: number };
  /** The MCP servers that skills declare (`mcp_tools`, `.mcp.json`). */
  mcp?: McpSettings;
  /**
   * Asked for a task skill's input values when it fires. Values are put in after the body is rendered
   * and are never run: a value with `` !`cmd` `` in it stays text. Do not call back into the context
   * from here (the step waits for this callback; a call into the same context would wait for the step).
   */
  collectInputs?: (request: CollectInputsRequest) => Promise<InputValues | undefined> | InputValues | undefined;
  /** The host agent's own tools: listed in every step's `tools` before the skill tools; `callTool` runs their `execute`. */
  tools?: HostTool[];
  /**
   * Names and argument shapes of the skill tools: skillctx's own (`load_skill`, `read_skill_resource`,
   * `run_skill_script`, `unload_skill`) or a framework's (`strands`, `openhands`, `langflow`, `claude`).
   * @default "skillctx"
   */
  toolset?: ToolsetName;
  /**
   * What the active skill's `allowed-tools` does: `filter` lists only the allowed tools (plus the skill
   * tools) and refuses other calls; `refuse` keeps the whole, byte-stable list and refuses other calls
   * (prompt-cache friendly); `off` ignores allowed-tools.
   * @default "filter"
   */
  toolFilter?: ToolFilterMode;
  /** Limits of the skill tools (resource size, listed files, script timeout and output). */
  skillTools?: SkillToolSettings;
  /**
   * Caps on the text that reaches the model: the guidance block, each attached and each loaded skill body.
   * @default { maxGuidanceBlockBytes: 262144, maxAttachedSkillBytes: 65536, maxLoadedSkillBytes: 65536 }
   */
  limits?: TextLimits;
  /** Overrides of the wording around skill text. */
  templates?: Partial<Templates>;
  /**
   * A state saved from `ctx.state`, to resume a conversation. Checked at `create`: anything else
   * rejects with a `SkillctxError` of code `STATE_INVALID`.
   */
  state?: ContextState;
  /** A skill metadata cache shared between contexts. */
  cache?: SkillCache;
  /** Aborts `create` (discovery, guidance rendering, server starts). */
  signal?: AbortSignal;
}
