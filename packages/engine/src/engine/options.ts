import { invalidOption, isWholeNumberAtLeast } from "@skillctx/core/internal";
import type { Skill, SkillCache, SkillInput, Trust } from "@skillctx/core";
import type { EventListener } from "../events/types.js";
import type { LockMode, SourceInput } from "@skillctx/sources";
import type { VerifySettings } from "@skillctx/sources";
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
import type { SkillSearchSettings } from "../tools/search-skills.js";

/** What `collectInputs` is asked when a task skill fires. */
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
  /**
   * Programmatic sources (skill folders, parent folders, .md files, Skill objects, `defineSkill(...)`);
   * they win name clashes. Remote sources too: `{ mcp, name }`, `{ git, ref?, path? }`, `{ url }`, whose
   * skills are untrusted unless `trust.remote` names them and never shadow another origin's skill.
   */
  skills?: SourceInput[];
  /** Also read the user's skill folders (`~/.agents/skills`, `~/.claude/skills`, `~/.openhands/skills`), or these folders. @default false */
  userSkills?: boolean | string[];
  /** The home folder for user skills. @default os.homedir() */
  homeDir?: string;
  /**
   * Names whose presence marks the project root, nearest first, as Codex's `project_root_markers`
   * (`[".git", ".hg"]`); `[]` makes cwd the root. Skills and guidance are read from cwd up to it.
   * @default [".git"]
   */
  projectRootMarkers?: string[];
  /** The host's own system prompt; it comes first in `system`. */
  systemPrompt?: string;
  /** The model id (`claude-sonnet-4-6`, `gpt-5`, ...): gates guidance written for one model family. */
  model?: string;
  /** Skill names to leave out everywhere. */
  disabled?: string[];
  /**
   * Which scopes may run commands, scripts and MCP servers; guidance may read outside the project
   * only with `user: true` given explicitly. @default { project: false, user: true }
   */
  trust?: Trust;
  /** How `` !`cmd` `` spans of skills from trusted scopes are rendered. */
  render?: RenderSettings;
  /**
   * Read repository guidance files (AGENTS.md, CLAUDE.md, .cursorrules, rules, ...) and command files
   * (`.claude/commands`, `.cursor/commands`, `.github/prompts`); see `GuidanceSettings`. @default true
   */
  guidance?: boolean | GuidanceSettings;
  /**
   * Catalog presentation in `system`. Over `budgetTokens` (o200k_base) it degrades: short descriptions,
   * then names only, then as many names as fit, and a `search_skills` tool is listed for the rest.
   */
  catalog?: {
    /** `xml`: an `<available_skills>` block; `markdown`: a `- **name**: description` list. @default "xml" */
    format?: "xml" | "markdown";
    /** Most tokens (o200k_base) the catalog may take. @default none: every entry in full */
    budgetTokens?: number;
  };
  /**
   * Skill search: when `search_skills` is offered (`tool`), the calibrated cut-off, field weights, a
   * host embedding function, and suggestions on user messages (`suggest`). docs/selection.md.
   */
  search?: SkillSearchSettings;
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
   * Caps on the text that reaches the model: the guidance block, each attached and each loaded skill
   * body, and the bodies re-attached after condensation (per skill and per step).
   * @default { maxGuidanceBlockBytes: 262144, maxAttachedSkillBytes: 65536, maxLoadedSkillBytes: 65536, maxReattachedSkillBytes: 20000, maxReattachedTotalBytes: 100000 }
   */
  limits?: TextLimits;
  /**
   * The conversation's session id, put in for `${CLAUDE_SESSION_ID}` in skill bodies: 1 to 256
   * characters, no control characters. @default the id saved in `state`, else a random UUID (kept in state)
   */
  sessionId?: string;
  /**
   * Skill folders below the project root (`packages/web/.claude/skills`, `packages/web/.agents/skills`)
   * become available when a tool call touches a file below their sub-folder, as in Claude Code; their
   * catalog entries are attached to that tool result (`system` does not change). `false` turns this off;
   * `maxFolders` caps how many folders one context reveals.
   * @default true (at most 100 folders)
   */
  nestedSkills?: NestedSkillsSetting;
  /** Overrides of the wording around skill text. */
  templates?: Partial<Templates>;
  /**
   * A state saved from `ctx.state`, to resume a conversation. Checked at `create`: anything else
   * rejects with a `SkillctxError` of code `STATE_INVALID`.
   */
  state?: ContextState;
  /** A skill metadata cache shared between contexts. */
  cache?: SkillCache;
  /** Receives every event of the context (the same stream as `ctx.on("*", ...)`). A listener that throws never breaks a step. */
  onEvent?: EventListener;
  /**
   * Whether each step counts the tokens every skill adds to it (`step.usage`, the `step` event, the
   * `skillctx.step` span): `true` always, `false` never; unset, only when a `step` listener is registered
   * or an OpenTelemetry tracer provider records the step. The first count loads the tokenizer (~150 ms);
   * later steps count only text they have not seen. @default undefined
   */
  usage?: boolean;
  /**
   * Tools of programmatic skills and typed script tools: offered while their skill is active (loaded,
   * until unloaded or another skill is loaded), or always. @default "active"
   */
  skillCodeTools?: "active" | "always";
  /** Runs a sub-agent for `execute_skill` (and skills with `context: fork`); without it `execute_skill` is not offered. */
  runSubAgent?: RunSubAgent;
  /**
   * Sub-agents run by `execute_skill`: most model calls per run, the model id when the skill names none
   * (`model:`), and the most UTF-8 bytes of an answer returned to the parent.
   * @default { maxSteps: 10, maxAnswerBytes: 65536 }
   */
  subAgent?: SubAgentSettings;
  /** Required signatures of skill folders (sigstore); a skill that fails is not loaded. */
  verify?: VerifySettings;
  /** How remote sources meet `skills.lock.json`. @default "update" */
  lock?: LockMode;
  /** Folder of fetched remote sources. @default `$XDG_CACHE_HOME/skillctx` or `~/.cache/skillctx` */
  cacheDir?: string;
  /** Use cached remote sources only; never touch the network. @default false */
  offline?: boolean;
  /** Watch local skill sources and refresh changed skills before the next step (debounced). @default false */
  watch?: boolean | { debounceMs?: number };
  /**
   * How a change of skills reaches the model: `append` leaves `system` byte-identical and attaches a
   * note of added, changed and removed skills to the newest message (keeps the prompt cache);
   * `system` rebuilds the catalog in `system`. @default "append" under `watch`, else "system"
   */
  catalogUpdates?: "append" | "system";
  /** Aborts `create` (discovery, guidance rendering, server starts). */
  signal?: AbortSignal;
}

/** Longest `sessionId` accepted. */
const MAX_SESSION_ID_CHARS = 256;

/**
 * Checks the options of invocation and nested skills (`sessionId`, `nestedSkills`).
 *
 * @throws SkillctxError `INVALID_OPTIONS` naming the bad option.
 */
export function checkInvocationOptions(options: Pick<AgentContextOptions, "sessionId" | "nestedSkills">): void {
  const id: unknown = options.sessionId;
  if (
    id !== undefined &&
    (typeof id !== "string" || id.length === 0 || id.length > MAX_SESSION_ID_CHARS || /\p{Cc}/u.test(id))
  ) {
    throw invalidOption("sessionId", `a string of 1 to ${MAX_SESSION_ID_CHARS} characters without control characters`);
  }
  const nested: unknown = options.nestedSkills;
  if (nested === undefined || typeof nested === "boolean") return;
  const max = typeof nested === "object" && nested !== null ? (nested as { maxFolders?: unknown }).maxFolders : null;
  if (max === undefined || isWholeNumberAtLeast(max, 0)) return;
  throw invalidOption("nestedSkills", "a boolean or { maxFolders?: a non-negative integer }");
}
