/**
 * Builds the {@link EngineDeps} of one context from its options: the state owner, the conversation
 * tracker, the one diagnostic sink and event bus, telemetry, nested skills, MCP servers, hot reload,
 * the toolbox (with the tool-state view and sub-agent support) and the attachment context. Every
 * callback here closes over the dependency object, never over `AgentContext`.
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
import type { EngineDeps, EngineLive } from "./step-deps.js";
import { defaultTemplates } from "./templates.js";
import { resolveLimits } from "./text-limits.js";
import { createToolStateView } from "./tool-state-view.js";

/** The dependencies of a new context. `live.skillSet` and `live.parts` are set by the first reload. */
export function createEngineDeps(options: AgentContextOptions, state: ContextState): EngineDeps {
  const live = { options, activations: [], invocations: [] } as unknown as EngineLive;
  const diagnostics = new DiagnosticCollector();
  // A throwing listener is a diagnostic of the next step; one of a `diagnostic` listener is not emitted again.
  const events = new EventBus((error, event) => {
    const reason = errorText(error);
    const found = diagnostic("EVENT_LISTENER_FAILED", "warning", `a listener of "${event.type}" threw: ${reason}`);
    diagnostics.add(found, event.type !== "diagnostic");
  });
  diagnostics.attach(events);
  const { sources = {}, tools = {}, conversation = {}, telemetry: telemetryOptions = {} } = options;
  if (telemetryOptions.onEvent !== undefined) events.on("*", telemetryOptions.onEvent);
  const store = new ContextStateStore(state);
  const sessionId = conversation.sessionId ?? state.sessionId;
  if (sessionId !== undefined) store.setSessionId(sessionId);
  const tracker = new ConversationTracker(store);
  const telemetry = new ContextTelemetry(events, telemetrySources(live, store, tracker), telemetryOptions.usage);
  const templates = { ...defaultTemplates, ...conversation.templates };
  const limits = resolveLimits(conversation.limits);
  const turns = new ContextTurns();
  const sink = diagnostics.sink;
  const render = (text: string, skill: Skill, signal: AbortSignal | undefined): Promise<string> =>
    renderSkillText(text, skill, {
      cwd: live.options.cwd,
      trust: live.options.trust,
      settings: live.options.tools?.render,
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
    verify: () => live.options.sources?.verify,
  });
  const servers = new SkillServerPool({ trust: () => live.options.trust, settings: options.mcp, report: sink, events });
  const hotReload = new HotReload(
    { watch: sources.watch, catalogUpdates: options.catalog?.updates },
    {
      events,
      cache: sources.cache,
      skills: () => live.skillSet,
      thaw: (key) => store.thaw(key),
      report: sink,
      catalogFormat: () => live.options.catalog?.format,
    },
  );
  const hostTools = checkHostTools(tools.host);
  const search = new SkillSearch(options.catalog?.search);
  const host: ToolboxHost = {
    cwd: options.cwd,
    trust: options.trust,
    settings: tools.skillTools ?? {},
    limits,
    get skills() {
      return live.skillSet;
    },
    get catalog() {
      return live.parts.catalog;
    },
    state: createToolStateView({ store, live, telemetry, servers, signal: turns.signal }),
    toolFilter: checkToolFilter(tools.filter),
    hostTools,
    // The skill servers are the one provider of tools beside the host's and the skill tools.
    providers: [servers],
    skillCodeTools: checkSkillCodeTools(tools.codeTools),
    render,
    // ${CLAUDE_SKILL_DIR}, ${SKILL_DIR} and ${CLAUDE_SESSION_ID} in a body the model loads (argument placeholders stay
    // without `args`: no user arguments; a fork skill run by execute_skill gets the request as its arguments).
    substituteVariables: (text, skill, args) =>
      substitute(text, { skillDir: skillDirOf(skill), sessionId: store.sessionId, args }).text,
    diagnostic: sink,
    events,
    search,
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
  const toolbox = new Toolbox(host, resolveToolset(tools.toolset));
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
  const deps: EngineDeps = {
    live,
    store,
    tracker,
    templates,
    limits,
    diagnostics,
    events,
    telemetry,
    nested,
    toolbox,
    servers,
    hotReload,
    attachment,
    turns,
    search,
    render,
  };
  return deps;
}

// What the events and spans read at the end of an observed step.
function telemetrySources(live: EngineLive, store: ContextStateStore, tracker: ConversationTracker): StepSources {
  return {
    get catalog() {
      return live.parts.catalog;
    },
    guidance: () => live.parts.guidance ?? [],
    present: () => tracker.presentAttachments(),
    messageIndexOf: (fingerprint) => tracker.messageIndexOf(fingerprint),
    loaded: () => {
      const skill = store.activeSkill;
      const body = skill === undefined ? undefined : store.frozen(loadKey(skill));
      return skill === undefined || body === undefined ? undefined : { skill, body };
    },
  };
}
