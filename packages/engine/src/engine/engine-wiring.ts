/**
 * Builds the {@link EngineDeps} of one context from its options, in three steps with no half-built
 * object between them: the parts the reload reads (the state owner, the one diagnostic sink and event
 * bus, nested skills, MCP servers, hot reload, the toolset), then the first reload's snapshot, then
 * the parts that read the skills in use (the conversation tracker, telemetry, the toolbox with the
 * tool-state view and sub-agent support, the attachment context). This module and `create` are the
 * only readers of `AgentContextOptions`; the parts read `options` from {@link EngineParts.options}.
 * Every callback here closes over the parts, never over `AgentContext`.
 */
import { errorText } from "@skillctx/core/internal";
import type { Skill } from "@skillctx/core";
import { diagnostic } from "@skillctx/core";
import { checkSkillCodeTools } from "../code/code-tools.js";
import { ContextTelemetry } from "../events/context-telemetry.js";
import type { StepSources } from "../events/context-telemetry.js";
import { EventBus } from "../events/event-bus.js";
import { createSubAgentSupport } from "../tools/sub-agent-support.js";
import { checkHostTools } from "../tools/host-tools.js";
import { loadKey } from "../tools/load-skill.js";
import { resolveToolset } from "../tools/presets/index.js";
import { SkillSearch } from "../tools/search-skills.js";
import { checkToolFilter, Toolbox } from "../tools/toolbox.js";
import type { ToolboxHost } from "../tools/toolbox.js";
import { substitute } from "./arguments.js";
import { skillDirOf } from "./attachment.js";
import { ContextTurns } from "./context-turns.js";
import { ConversationTracker } from "./conversation.js";
import { DiagnosticCollector } from "./diagnostic-collector.js";
import { HotReload } from "./hot-reload.js";
import { NestedSkills } from "./nested-skills.js";
import type { AgentContextOptions } from "./options.js";
import { renderSkillText } from "./render-skill.js";
import { SkillServerPool } from "./skill-servers.js";
import type { ContextState } from "./state.js";
import { ContextStateStore } from "./state-store.js";
import { reloadServers, reloadSkills } from "./reload-pipeline.js";
import type { EngineDeps, EngineLive, EngineOptions, EngineParts } from "./step-deps.js";
import { defaultTemplates } from "./templates.js";
import { resolveLimits } from "./text-limits.js";
import { createToolStateView } from "./tool-state-view.js";

/**
 * The parts of a new context with its first snapshot loaded. `options.signal` aborts the first load;
 * when it fails, what was started is closed and the error thrown.
 */
export async function startEngine(options: AgentContextOptions, state: ContextState): Promise<EngineDeps> {
  const { skills, ...rest } = options;
  const { parts, tools } = createEngineParts(rest, state);
  try {
    const snapshot = await reloadSkills(parts, skills, undefined, options.signal);
    await reloadServers(parts, snapshot, options.signal);
    return completeEngine(parts, tools, { snapshot, skills, activations: [], invocations: [] });
  } catch (error) {
    await closeEngine(parts);
    throw error;
  }
}

/** Stops what a context started: aborts its turns, then closes the watcher and the MCP servers. Idempotent. */
export function closeEngine(parts: Pick<EngineParts, "turns" | "hotReload" | "servers">): Promise<void> {
  const { hotReload, servers } = parts;
  return parts.turns.close(async () => {
    await hotReload.close();
    await servers.close();
  });
}

/** The tool options, checked before anything is loaded (`INVALID_OPTIONS`). */
interface CheckedTools {
  hostTools: ReturnType<typeof checkHostTools>;
  toolFilter: ToolboxHost["toolFilter"];
  skillCodeTools: ToolboxHost["skillCodeTools"];
  subAgents: ToolboxHost["subAgents"];
}

// What exists before any skill is loaded: everything the reload pipeline reads, and every option
// checked, so a bad option throws before anything is read or started.
function createEngineParts(options: EngineOptions, state: ContextState): { parts: EngineParts; tools: CheckedTools } {
  const diagnostics = new DiagnosticCollector();
  // A throwing listener is a diagnostic of the next step; one of a `diagnostic` listener is not emitted again.
  const events = new EventBus((error, event) => {
    const reason = errorText(error);
    const found = diagnostic("EVENT_LISTENER_FAILED", "warning", `a listener of "${event.type}" threw: ${reason}`);
    diagnostics.add(found, event.type !== "diagnostic");
  });
  diagnostics.attach(events);
  const { sources = {}, tools = {}, conversation = {}, telemetry = {} } = options;
  if (telemetry.onEvent !== undefined) events.on("*", telemetry.onEvent);
  const store = new ContextStateStore(state);
  const sessionId = conversation.sessionId ?? state.sessionId;
  if (sessionId !== undefined) store.setSessionId(sessionId);
  const templates = { ...defaultTemplates, ...conversation.templates };
  const limits = resolveLimits(conversation.limits);
  const turns = new ContextTurns();
  const sink = diagnostics.sink;
  const render = (text: string, skill: Skill, signal: AbortSignal | undefined): Promise<string> =>
    renderSkillText(text, skill, {
      cwd: options.cwd,
      trust: options.trust,
      settings: tools.render,
      templates,
      signal: signal ?? turns.signal,
      report: sink,
      events,
    });
  const nested = new NestedSkills({
    cwd: options.cwd,
    homeDir: sources.homeDir,
    rootMarkers: sources.projectRootMarkers,
    trust: options.trust,
    cache: sources.cache,
    setting: conversation.nestedSkills,
    // The same signature gate as the skill set: a revealed or restored nested skill is verified like a top-level one.
    verify: () => sources.verify,
  });
  const servers = new SkillServerPool({ trust: () => options.trust, settings: options.mcp, report: sink, events });
  const hotReload = new HotReload(
    { watch: sources.watch, catalogUpdates: options.catalog?.updates },
    {
      events,
      cache: sources.cache,
      thaw: (key) => store.thaw(key),
      report: sink,
      catalogFormat: options.catalog?.format,
      told: () => store.told,
      tell: (told) => store.tell(told),
    },
  );
  const hostTools = checkHostTools(tools.host);
  const search = new SkillSearch(options.catalog?.search);
  const checked: CheckedTools = {
    hostTools,
    toolFilter: checkToolFilter(tools.filter),
    skillCodeTools: checkSkillCodeTools(tools.codeTools),
    // What execute_skill's sub-agents use: each call of the skill's code tools takes the context's turn
    // (execute_skill itself runs beside steps, so a sub-agent's state-changing call cannot deadlock).
    subAgents:
      options.subAgents?.run === undefined
        ? undefined
        : createSubAgentSupport({
            run: options.subAgents.run,
            settings: options.subAgents,
            hostTools,
            inTurn: (signal, operation) => turns.exclusive(signal, operation),
          }),
  };
  const toolset = resolveToolset(tools.toolset);
  const parts: EngineParts = {
    options,
    store,
    templates,
    limits,
    diagnostics,
    events,
    nested,
    servers,
    hotReload,
    turns,
    toolset,
    search,
    render,
  };
  return { parts, tools: checked };
}

// The parts that read the skills in use, over the first snapshot.
function completeEngine(parts: EngineParts, checked: CheckedTools, live: EngineLive): EngineDeps {
  const { options, store, limits, turns, render, events, servers, templates, search } = parts;
  const { tools = {}, conversation = {}, telemetry: telemetryOptions = {} } = options;
  const sink = parts.diagnostics.sink;
  const tracker = new ConversationTracker(store);
  const telemetry = new ContextTelemetry(events, telemetrySources(live, store, tracker), telemetryOptions.usage);
  const host: ToolboxHost = {
    cwd: options.cwd,
    trust: options.trust,
    settings: tools.skillTools ?? {},
    limits,
    get skills() {
      return live.snapshot.skillSet;
    },
    get catalog() {
      return live.snapshot.parts.catalog;
    },
    state: createToolStateView({ store, live, telemetry, servers, signal: turns.signal }),
    toolFilter: checked.toolFilter,
    hostTools: checked.hostTools,
    // The skill servers are the one provider of tools beside the host's and the skill tools.
    providers: [servers],
    skillCodeTools: checked.skillCodeTools,
    render,
    // ${CLAUDE_SKILL_DIR}, ${SKILL_DIR} and ${CLAUDE_SESSION_ID} in a body the model loads (argument placeholders stay
    // without `args`: no user arguments; a fork skill run by execute_skill gets the request as its arguments).
    substituteVariables: (text, skill, args) =>
      substitute(text, { skillDir: skillDirOf(skill), sessionId: store.sessionId, args }).text,
    diagnostic: sink,
    events,
    search,
    subAgents: checked.subAgents,
  };
  const toolbox = new Toolbox(host, parts.toolset);
  const attachment = {
    cwd: options.cwd,
    templates,
    maxBytes: limits.maxAttachedSkillBytes,
    renderOnTrigger: tools.render?.onTrigger !== false,
    sessionId: () => store.sessionId,
    collectInputs: conversation.collectInputs,
    render,
    report: sink,
  };
  return { ...parts, live, tracker, telemetry, toolbox, attachment };
}

// What the events and spans read at the end of an observed step.
function telemetrySources(live: EngineLive, store: ContextStateStore, tracker: ConversationTracker): StepSources {
  return {
    get catalog() {
      return live.snapshot.parts.catalog;
    },
    guidance: () => live.snapshot.parts.guidance ?? [],
    present: () => tracker.presentAttachments(),
    messageIndexOf: (fingerprint) => tracker.messageIndexOf(fingerprint),
    loaded: () => {
      const skill = store.activeSkill;
      const body = skill === undefined ? undefined : store.frozen(loadKey(skill));
      return skill === undefined || body === undefined ? undefined : { skill, body };
    },
  };
}
