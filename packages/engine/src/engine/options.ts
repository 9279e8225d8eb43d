import type { Skill, SkillInput, Trust } from "@skillctx/core";
import type { EventListener } from "../events/types.js";
import type { SourceInput } from "@skillctx/sources";
import type { SourceOptions } from "./source-options.js";
import type { RunSubAgent } from "../code/sub-agent-types.js";
import type { SubAgentSettings } from "../tools/sub-agent-support.js";
import type { TextLimits } from "../context-types.js";
import type { Message } from "../messages.js";
import type { NestedSkillsSetting } from "./nested-skills.js";
import type { McpSettings } from "./skill-servers.js";
import type { GuidanceSettings } from "./skill-set.js";
import type { ContextState } from "./state.js";
import type { InputValues } from "./task-inputs.js";
import type { Templates } from "./templates.js";
import type { HostTool } from "../tools/host-tools.js";
import type { SkillToolSettings, ToolFilterMode } from "../tool-kit/tool-settings.js";
import type { ToolsetName } from "../tools/toolset.js";
import type { SkillCodeToolsMode } from "../code/code-tools.js";
import type { SkillSearchSettings } from "../tools/search-skills.js";

/** What `conversation.collectInputs` is asked when a task skill fires. */
export interface CollectInputsRequest {
  skill: Skill;
  inputs: SkillInput[];
  /** The user message that fired the skill. */
  message: Message;
  signal?: AbortSignal | undefined;
}

export type { TextLimits } from "../context-types.js";

/** How `` !`cmd` `` spans in skill text are rendered. */
export interface RenderSettings {
  /**
   * Render keyword and path skills when they fire. @default true
   * @example
   * tools: { render: { onTrigger: false } }
   */
  onTrigger?: boolean;
  /**
   * Per command. @default 10000
   * @example
   * tools: { render: { timeoutMs: 30_000 } }
   */
  timeoutMs?: number;
  /**
   * Per command, UTF-8 bytes. @default 51200
   * @example
   * tools: { render: { maxOutputBytes: 8192 } }
   */
  maxOutputBytes?: number;
  /**
   * Extra environment for commands; wins over the inherited allowlist.
   * @example
   * tools: { render: { env: { GH_TOKEN: process.env.GH_TOKEN ?? "" } } }
   */
  env?: Record<string, string>;
}

export type { RemoteSourceOptions, SourceOptions } from "./source-options.js";

/**
 * The catalog of skills in `system` and skill search. Over `budgetTokens` (o200k_base) the catalog
 * degrades: short descriptions, then names only, then as many names as fit, and a `search_skills`
 * tool is listed for the rest.
 */
export interface CatalogOptions {
  /**
   * `xml`: an `<available_skills>` block; `markdown`: a `- **name**: description` list. @default "xml"
   * @example
   * catalog: { format: "markdown" }
   */
  format?: "xml" | "markdown";
  /**
   * Most tokens (o200k_base) the catalog may take. @default none: every entry in full
   * @example
   * catalog: { budgetTokens: 2000 }
   */
  budgetTokens?: number;
  /**
   * How a change of skills reaches the model: `append` leaves `system` byte-identical and attaches a
   * note of added, changed and removed skills to the newest message (keeps the prompt cache);
   * `system` rebuilds the catalog in `system`. @default "append" under `sources.watch`, else "system"
   * @example
   * catalog: { updates: "append" }
   */
  updates?: "append" | "system";
  /**
   * Skill search: when `search_skills` is offered (`tool`), the calibrated cut-off, field weights, a
   * host embedding function, and suggestions on user messages (`suggest`). docs/selection.md.
   * @default { tool: "auto", suggest: false }
   * @example
   * catalog: { search: { tool: "always", suggest: true } }
   */
  search?: SkillSearchSettings;
}

/** The tools of a step: the host's own, the skill tools' names and limits, and what skills may run. */
export interface ToolOptions {
  /**
   * The host agent's own tools: listed in every step's `tools` before the skill tools; `callTool` runs their `execute`. @default []
   * @example
   * tools: { host: [{ name: "Read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } }, execute: ({ path }) => readFile(path, "utf8") }] }
   */
  host?: HostTool[];
  /**
   * Names and argument shapes of the skill tools: skillctx's own (`load_skill`, `read_skill_resource`,
   * `run_skill_script`, `unload_skill`) or a framework's (`strands`, `openhands`, `langflow`, `claude`).
   * @default "skillctx"
   * @example
   * tools: { toolset: "claude" } // Skill, with Claude Code's argument shapes
   */
  toolset?: ToolsetName;
  /**
   * What the active skill's `allowed-tools` does: `refuse` keeps the whole, byte-identical list of tools
   * and refuses a call outside it, so the provider's cached prefix (tools come first) survives loading
   * and unloading; `filter` also lists only the allowed tools (plus the skill tools) while the skill is
   * active, which changes the tool definitions, so the next request re-reads its whole prompt; `off`
   * ignores allowed-tools. docs/decisions.md, "allowed-tools keeps the tools".
   * @default "refuse"
   * @example
   * tools: { filter: "off" } // allowed-tools as Claude Code reads it: nothing is refused
   */
  filter?: ToolFilterMode;
  /**
   * Limits of the skill tools (resource size, listed files, script timeout and output). @default see `SkillToolSettings`
   * @example
   * tools: { skillTools: { maxResourceBytes: 32_768 } }
   */
  skillTools?: SkillToolSettings;
  /**
   * Tools of programmatic skills and typed script tools: offered while their skill is active (loaded,
   * until unloaded or another skill is loaded), or always. @default "active"
   * @example
   * tools: { codeTools: "always" }
   */
  codeTools?: SkillCodeToolsMode;
  /**
   * How `` !`cmd` `` spans of skills from trusted scopes are rendered. @default see `RenderSettings`
   * @example
   * tools: { render: { timeoutMs: 5000 } }
   */
  render?: RenderSettings;
}

/**
 * Sub-agents run by `execute_skill` (and skills with `context: fork`): the runner, most model calls per
 * run, the model id when the skill names none (`model:`), and the most UTF-8 bytes of an answer
 * returned to the parent.
 */
export interface SubAgentOptions extends SubAgentSettings {
  /**
   * Runs a sub-agent for `execute_skill`; without it `execute_skill` is not offered. @default none
   * @example
   * subAgents: { run: async ({ system, messages, tools }) => runMyModelLoop(system, messages, tools) }
   */
  run?: RunSubAgent;
}

/** The conversation: its identity, saved state, text caps, wording, task inputs and nested skills. */
export interface ConversationOptions {
  /**
   * The conversation's session id, put in for `${CLAUDE_SESSION_ID}` in skill bodies: 1 to 256
   * characters, no control characters. @default the id saved in `state`, else a random UUID (kept in state)
   * @example
   * conversation: { sessionId: request.headers["x-session-id"] }
   */
  sessionId?: string;
  /**
   * A state saved from `ctx.state`, to resume a conversation. Checked at `create`: anything else
   * rejects with a `SkillctxError` of code `STATE_INVALID`. @default a new conversation
   * @example
   * const saved = JSON.parse(await readFile("state.json", "utf8"));
   * conversation: { state: saved } // saved earlier from ctx.state
   */
  state?: ContextState;
  /**
   * Caps on the text that reaches the model: the guidance block, each attached and each loaded skill
   * body, and the bodies re-attached after condensation (per skill and per step).
   * @default { maxGuidanceBlockBytes: 262144, maxAttachedSkillBytes: 65536, maxLoadedSkillBytes: 65536, maxReattachedSkillBytes: 20000, maxReattachedTotalBytes: 100000 }
   * @example
   * conversation: { limits: { maxLoadedSkillBytes: 32_768 } }
   */
  limits?: TextLimits;
  /**
   * Overrides of the wording around skill text. @default `defaultTemplates`
   * @example
   * conversation: { templates: { catalogIntro: "Skills you can load:" } }
   */
  templates?: Partial<Templates>;
  /**
   * Asked for a task skill's input values when it fires. Values are put in after the body is rendered
   * and are never run: a value with `` !`cmd` `` in it stays text. Do not call back into the context
   * from here (the step waits for this callback; a call into the same context would wait for the step).
   * @default none: inputs keep their defaults
   * @example
   * conversation: { collectInputs: async ({ inputs }) => Object.fromEntries(inputs.map((i) => [i.name, askUser(i.description)])) }
   */
  collectInputs?: (request: CollectInputsRequest) => Promise<InputValues | undefined> | InputValues | undefined;
  /**
   * Skill folders below the project root (`packages/web/.claude/skills`, `packages/web/.agents/skills`)
   * become available when a tool call touches a file below their sub-folder, as in Claude Code; their
   * catalog entries are attached to that tool result (`system` does not change). `false` turns this off;
   * `maxFolders` caps how many folders one context reveals.
   * @default true (at most 100 folders)
   * @example
   * conversation: { nestedSkills: { maxFolders: 20 } } // or false
   */
  nestedSkills?: NestedSkillsSetting;
}

/** What the context tells the host about itself: its events and the tokens skills add. */
export interface TelemetryOptions {
  /**
   * Receives every event of the context (the same stream as `ctx.on("*", ...)`). A listener that throws never breaks a step. @default none
   * @example
   * telemetry: { onEvent: (event) => console.error(event.type) }
   */
  onEvent?: EventListener;
  /**
   * Whether each step counts the tokens every skill adds to it (`step.usage`, the `step` event, the
   * `skillctx.step` span): `true` always, `false` never; unset, only when a `step` listener is registered
   * or an OpenTelemetry tracer provider records the step. The first count loads the tokenizer (~150 ms);
   * later steps count only text they have not seen. @default undefined
   * @example
   * telemetry: { usage: true } // step.usage on every step
   */
  usage?: boolean;
}

/**
 * Options of {@link AgentContext.create}: a few top-level options and one named group per concern.
 * Only `cwd` is required.
 *
 * @example
 * await AgentContext.create({ cwd: process.cwd() });
 * await AgentContext.create({ cwd, skills: ["./skills", defineSkill({ ... })], sources: { userSkills: true } });
 */
export interface AgentContextOptions {
  /**
   * The agent's working folder: the repository whose skills and guidance apply.
   * @example
   * cwd: process.cwd()
   */
  cwd: string;
  /**
   * Programmatic sources (skill folders, parent folders, .md files, Skill objects, `defineSkill(...)`);
   * they win name clashes. Remote sources too: `{ mcp, name }`, `{ git, ref?, path? }`, `{ url }`, whose
   * skills are untrusted unless `trust.remote` names them and never shadow another origin's skill.
   * @default []
   * @example
   * skills: ["./skills", { git: "https://github.com/acme/skills", ref: "v2" }, defineSkill({ name: "greet", description: "Greets.", instructions: "Say hello." })]
   */
  skills?: SourceInput[];
  /**
   * The host's own system prompt; it comes first in `system`. @default none
   * @example
   * systemPrompt: "You are a helpful release engineer."
   */
  systemPrompt?: string;
  /**
   * The model id (`claude-sonnet-4-6`, `gpt-5`, ...): gates guidance written for one model family. @default none
   * @example
   * model: "claude-sonnet-4-6"
   */
  model?: string;
  /**
   * Aborts `create` (discovery, guidance rendering, server starts). @default none
   * @example
   * signal: AbortSignal.timeout(10_000)
   */
  signal?: AbortSignal;
  /**
   * Where skills come from besides `cwd` and `skills`, and which ones apply. @default see `SourceOptions`
   * @example
   * sources: { userSkills: true, watch: true }
   */
  sources?: SourceOptions;
  /**
   * Read repository guidance files (AGENTS.md, CLAUDE.md, .cursorrules, rules, ...) and command files
   * (`.claude/commands`, `.cursor/commands`, `.github/prompts`); see `GuidanceSettings`. @default true
   * @example
   * guidance: false // skills only: no AGENTS.md, CLAUDE.md or rules
   */
  guidance?: boolean | GuidanceSettings;
  /**
   * The catalog of skills in `system`, how changes reach the model, and skill search. @default see `CatalogOptions`
   * @example
   * catalog: { budgetTokens: 2000, search: { tool: "auto" } }
   */
  catalog?: CatalogOptions;
  /**
   * The host's tools, the skill tools and how skill text runs commands. @default see `ToolOptions`
   * @example
   * tools: { host: myTools, filter: "refuse" }
   */
  tools?: ToolOptions;
  /**
   * Which scopes may run commands, scripts and MCP servers; guidance may read outside the project
   * only with `user: true` given explicitly. @default { project: false, user: true }
   * @example
   * trust: { project: true } // the repository's commands, scripts and MCP servers may run
   */
  trust?: Trust;
  /**
   * The MCP servers that skills declare (`mcp_tools`, `.mcp.json`). @default see `McpSettings`
   * @example
   * mcp: { startupTimeoutMs: 30_000 }
   */
  mcp?: McpSettings;
  /**
   * Sub-agents for `execute_skill`; `execute_skill` is offered only with `subAgents.run`. @default none
   * @example
   * subAgents: { run: runSubAgent, maxSteps: 20 }
   */
  subAgents?: SubAgentOptions;
  /**
   * The conversation: session id, saved state, text caps, wording, task inputs, nested skills. @default see `ConversationOptions`
   * @example
   * conversation: { state: saved, sessionId: "ticket-4411" }
   */
  conversation?: ConversationOptions;
  /**
   * Events and token counts. @default see `TelemetryOptions`
   * @example
   * telemetry: { onEvent: (event) => log(event) }
   */
  telemetry?: TelemetryOptions;
}
