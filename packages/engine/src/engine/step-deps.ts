/**
 * What the step pipeline, the reload pipeline and the tool-state view work on: explicit parts, built
 * once per context by `engine-wiring.ts`. Nothing in them points back at `AgentContext`. Each stage
 * takes a `Pick` of the parts it reads; none takes the whole.
 */
import type { Skill } from "@skillctx/core";
import type { SourceInput } from "@skillctx/sources";
import type { Activation, SkillSet, TextLimits } from "../context-types.js";
import type { ContextTelemetry } from "../events/context-telemetry.js";
import type { EventBus } from "../events/event-bus.js";
import type { Toolset } from "../tools/toolset.js";
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

/**
 * The options of a context as `create` resolved them (`cwd` a folder, a skill cache set): the one
 * place every part reads them from, never replaced. The programmatic skill sources, which `setSkills`
 * replaces, are {@link EngineLive.skills} instead.
 */
export type EngineOptions = Readonly<Omit<AgentContextOptions, "skills">>;

/** The skills in use and what a reload built from them: one immutable value, swapped whole. */
export interface SkillSnapshot {
  /** The skills in use (with the nested skills revealed so far). */
  readonly skillSet: SkillSet;
  /** `system`, its catalog and the guidance texts in it. */
  readonly parts: SystemParts;
}

/** What changes between steps besides the stored state. */
export interface EngineLive {
  /**
   * The skills, `system` and catalog in use. A reload returns a new snapshot that the façade swaps in
   * with one assignment; a step that reveals nested skills swaps in a copy with them.
   */
  snapshot: SkillSnapshot;
  /** The programmatic skill sources (the `skills` option; `setSkills` replaces them). */
  skills: SourceInput[] | undefined;
  /** `load` activations made by tool calls since the last step. */
  activations: Activation[];
  /** `ctx.invoke` calls waiting for the next step. */
  invocations: Invocation[];
}

/** The parts that exist before the first reload: everything the reload pipeline reads. */
export interface EngineParts {
  readonly options: EngineOptions;
  /** The one owner and writer of the conversation's state. */
  readonly store: ContextStateStore;
  readonly templates: Templates;
  readonly limits: Required<TextLimits>;
  /** The one sink of diagnostics: held for the next step, emitted as `diagnostic` events. */
  readonly diagnostics: DiagnosticCollector;
  /** The one event stream (`on`, `telemetry.onEvent`). */
  readonly events: EventBus;
  readonly nested: NestedSkills;
  readonly servers: SkillServerPool;
  /** `sources.watch` and `catalog.updates`: the watcher, the changes between loads and their note. */
  readonly hotReload: HotReload;
  readonly turns: ContextTurns;
  /** The tool names and wording `system` and the notes refer to (the toolbox's toolset). */
  readonly toolset: Toolset;
  /** The one owner of skill search: `search_skills` and suggestions on user messages. */
  readonly search: SkillSearch;
  /** Renders a skill's `` !`cmd` `` text (trust-gated), with the context's signal when none is given. */
  render(text: string, skill: Skill, signal: AbortSignal | undefined): Promise<string>;
}

/** The parts of one context's pipelines, once its skills are loaded. */
export interface EngineDeps extends EngineParts {
  readonly live: EngineLive;
  readonly tracker: ConversationTracker;
  /** Step and tool-call events, `step.usage` and OpenTelemetry spans. */
  readonly telemetry: ContextTelemetry;
  readonly toolbox: Toolbox;
  readonly attachment: AttachmentContext;
}
