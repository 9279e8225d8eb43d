/**
 * What the step pipeline, the reload pipeline and the tool-state view work on: one explicit object,
 * built once per context by `engine-wiring.ts`. Nothing in it points back at `AgentContext`.
 */
import type { Skill } from "@skillctx/core";
import type { Activation, SkillSet, TextLimits } from "../context-types.js";
import type { ContextTelemetry } from "../events/context-telemetry.js";
import type { EventBus } from "../events/event-bus.js";
import type { SkillSearch } from "../tools/search-skills.js";
import type { Toolbox } from "../tools/toolbox.js";
import type { AttachmentContext } from "./attachment.js";
import type { ContextTurns } from "./context-turns.js";
import type { ConversationTracker } from "./conversation.js";
import type { DiagnosticCollector } from "./diagnostic-collector.js";
import type { HotReload } from "./hot-reload.js";
import type { Invocation } from "./invocation.js";
import type { NestedSkills } from "./nested-skills.js";
import type { AgentContextOptions } from "./options.js";
import type { SkillServerPool } from "./skill-servers.js";
import type { ContextStateStore } from "./state-store.js";
import type { SystemParts } from "./system-prompt.js";
import type { Templates } from "./templates.js";

/** What changes between steps besides the stored state: written by the pipelines, read by the façade. */
export interface EngineLive {
  /** The options in use (`setSkills` replaces `skills`). */
  options: AgentContextOptions;
  /** The skills in use; set by the first reload. */
  skillSet: SkillSet;
  /** `system` and its catalog; set by the first reload. */
  parts: SystemParts;
  /** `load` activations made by tool calls since the last step. */
  activations: Activation[];
  /** `ctx.invoke` calls waiting for the next step. */
  invocations: Invocation[];
}

/** The dependencies of one context's pipelines. */
export interface EngineDeps {
  readonly live: EngineLive;
  /** The one owner and writer of the conversation's state. */
  readonly store: ContextStateStore;
  readonly tracker: ConversationTracker;
  readonly templates: Templates;
  readonly limits: Required<TextLimits>;
  /** The one sink of diagnostics: held for the next step, emitted as `diagnostic` events. */
  readonly diagnostics: DiagnosticCollector;
  /** The one event stream (`on`, `telemetry.onEvent`). */
  readonly events: EventBus;
  /** Step and tool-call events, `step.usage` and OpenTelemetry spans. */
  readonly telemetry: ContextTelemetry;
  readonly nested: NestedSkills;
  readonly toolbox: Toolbox;
  readonly servers: SkillServerPool;
  /** `sources.watch` and `catalog.updates`: the watcher, the changes between loads and their note. */
  readonly hotReload: HotReload;
  readonly attachment: AttachmentContext;
  readonly turns: ContextTurns;
  /** The one owner of skill search: `search_skills` and suggestions on user messages. */
  readonly search: SkillSearch;
  /** Renders a skill's `` !`cmd` `` text (trust-gated), with the context's signal when none is given. */
  render(text: string, skill: Skill, signal: AbortSignal | undefined): Promise<string>;
}
