import { within } from "@skillctx/process";
import type { CatalogResult, Diagnostic, Skill, SkillSourceInput } from "@skillctx/core";
import { createSkillCache, diagnostic, readSkillContent, SkillctxError } from "@skillctx/core";
import type {
  Activation,
  ContextStep,
  SkillSet,
  SkillState,
  TextLimits,
  ToolDefinition,
  ToolProvider,
  ToolResult,
} from "../context-types.js";
import type { Message } from "../messages.js";
import { EventBus } from "../events/event-bus.js";
import { ContextTelemetry } from "../events/context-telemetry.js";
import type { StepNotes, StepSources } from "../events/context-telemetry.js";
import type { EventListener, SkillctxEventType } from "../events/types.js";
import { defaultCacheDir } from "../sources/cache-dir.js";
import { isRemoteSource } from "../sources/types.js";
import type { ResolvedSources } from "../sources/resolve-sources.js";
import type { SourceInput } from "../sources/types.js";
import { checkHostTools } from "../tools/host-tools.js";
import type { HostTool } from "../tools/host-tools.js";
import { resolveToolset } from "../tools/presets/index.js";
import { SEARCH_TOOL } from "../tools/presets/common.js";
import { loadKey } from "../tools/load-skill.js";
import { checkToolFilter, Toolbox } from "../tools/toolbox.js";
import { checkSkillCodeTools } from "../code/code-tools.js";
import { declaredStates } from "../code/skill-state.js";
import { createSubAgentSupport, runsBeside } from "../tools/execute-skill.js";
import type { SubAgentSupport } from "../tools/execute-skill.js";
import type { ToolboxHost } from "../tools/toolbox.js";
import { substitute } from "./arguments.js";
import { buildAttachment, skillDirOf } from "./attachment.js";
import type { AttachmentContext, BuiltAttachment } from "./attachment.js";
import { ConversationTracker } from "./conversation.js";
import type { PendingActivation } from "./conversation.js";
import { activationOf, invocationHits, resolveInvocation } from "./invocation.js";
import type { Invocation } from "./invocation.js";
import { NestedSkills, withNestedSkills } from "./nested-skills.js";
import type { NestedDiscovery } from "./nested-skills.js";
import { reattachments } from "./reattach.js";
import type { Reattachments } from "./reattach.js";
import { closedError, isClosedError, linkSignals } from "./lifetime.js";
import { checkInvocationOptions } from "./options.js";
import type { AgentContextOptions } from "./options.js";
import { HotReload } from "./hot-reload.js";
import { renderSkillText } from "./render-skill.js";
import { SkillServerPool } from "./skill-servers.js";
import { loadSkillSet } from "./skill-set.js";
import { emptyState, parseContextState } from "./state.js";
import type { Carrier, ContextState } from "./state.js";
import { ContextStateStore } from "./state-store.js";
import { StepQueue } from "./step-queue.js";
import { buildSystem } from "./system-prompt.js";
import type { SystemParts } from "./system-prompt.js";
import { defaultTemplates } from "./templates.js";
import type { Templates } from "./templates.js";
import { resolveLimits } from "./text-limits.js";
import { errorText } from "@skillctx/core/internal";

// The shared types live in a leaf module (no engine/tools cycle); re-exported here for the adapters.
export type { Activation, ContextStep, ToolDefinition } from "../context-types.js";

/**
 * The context engine of one conversation. Call {@link AgentContext.buildContext} on every step.
 *
 * Calls on one context are serialised: `buildContext`, `setSkills`, `refresh` and calls of the skill
 * tools (which read and change the conversation's state) run one after another, in the order they
 * were made, as if awaited in turn. Host and MCP tool calls run beside them. After `close()`, every
 * method rejects (`listTools` throws) with a `SkillctxError` of code `CONTEXT_CLOSED` and starts nothing.
 *
 * @example
 * const ctx = await AgentContext.create({ cwd: process.cwd(), systemPrompt: "You are a coding agent." });
 * const step = await ctx.buildContext([{ role: "user", content: "Deploy with docker" }]);
 * // step.system, step.messages, step.tools go to the model
 * await ctx.close();
 */
export class AgentContext {
  private skillSet!: SkillSet;
  private parts!: SystemParts;
  /** The one owner and writer of the conversation's state. */
  private readonly store: ContextStateStore;
  private readonly tracker: ConversationTracker;
  private readonly templates: Templates;
  private readonly limits: Required<TextLimits>;
  private pendingDiagnostics: Diagnostic[] = [];
  private pendingActivations: Activation[] = [];
  /** `ctx.invoke` calls waiting for the next step. */
  private invocations: Invocation[] = [];
  private readonly nested: NestedSkills;
  private readonly queue = new StepQueue();
  /** Aborted by `close()`: every render, server start, script and step in flight is passed its signal. */
  private readonly lifetime = new AbortController();
  private closing: Promise<void> | undefined;
  /** Operations in flight (steps, tool calls): `close()` waits for them to settle after aborting them. */
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly toolbox: Toolbox;
  /** Sources of tools beside the host's and the skill tools (the MCP bridge registers here); listed after them. */
  readonly providers: ToolProvider[] = [];
  private readonly servers: SkillServerPool;
  /** `watch` and `catalogUpdates`: the watcher, the changes between loads and their note. */
  private readonly hotReload: HotReload;
  private readonly attachmentContext: AttachmentContext;
  /** The signals of a call without a caller signal: the context's own (no listener to add or remove). */
  private readonly unlinked = { signal: this.lifetime.signal, dispose: () => {} };
  /** The one event stream (`on`, `onEvent`); a throwing listener becomes a diagnostic of the next step. */
  private readonly events: EventBus;
  /** Step and tool-call events, `step.usage` and OpenTelemetry spans (nothing runs when nobody observes). */
  private readonly telemetry: ContextTelemetry;

  private constructor(
    private options: AgentContextOptions,
    state: ContextState,
  ) {
    this.events = new EventBus((error, event) => {
      const reason = errorText(error);
      this.pendingDiagnostics.push(
        diagnostic("EVENT_LISTENER_FAILED", "warning", `a listener of "${event.type}" threw: ${reason}`),
      );
    });
    if (options.onEvent !== undefined) this.events.on("*", options.onEvent);
    this.telemetry = new ContextTelemetry(this.events, this.telemetrySources(), options.usage);
    this.templates = { ...defaultTemplates, ...options.templates };
    this.limits = resolveLimits(options.limits);
    this.store = new ContextStateStore(state);
    const sessionId = options.sessionId ?? state.sessionId;
    if (sessionId !== undefined) this.store.setSessionId(sessionId);
    this.tracker = new ConversationTracker(this.store);
    this.nested = new NestedSkills({
      cwd: options.cwd,
      homeDir: options.homeDir,
      trust: options.trust,
      cache: options.cache,
      setting: options.nestedSkills,
    });
    this.servers = new SkillServerPool({
      trust: () => this.options.trust,
      settings: options.mcp,
      report: (found) => void this.pendingDiagnostics.push(...found),
      events: this.events,
    });
    this.providers.push(this.servers);
    this.hotReload = new HotReload(options, {
      events: this.events,
      cache: options.cache,
      skills: () => this.skillSet,
      thaw: (key) => this.store.thaw(key),
      report: (d) => void this.pendingDiagnostics.push(d),
      catalogFormat: () => this.options.catalog?.format,
    });
    const self = this;
    const hostTools = checkHostTools(options.tools);
    const host: ToolboxHost = {
      cwd: options.cwd,
      trust: options.trust,
      settings: options.skillTools ?? {},
      limits: this.limits,
      get skills() {
        return self.skillSet;
      },
      get catalog() {
        return self.parts.catalog;
      },
      state: this.toolStateView(),
      toolFilter: checkToolFilter(options.toolFilter),
      hostTools,
      providers: this.providers,
      skillCodeTools: checkSkillCodeTools(options.skillCodeTools),
      render: (text, skill, signal) => this.render(text, skill, signal),
      substituteVariables: (text, skill, args) => this.substituteVariables(text, skill, args),
      diagnostic: (d) => void this.pendingDiagnostics.push(d),
      events: this.events,
      subAgents: options.runSubAgent === undefined ? undefined : this.subAgentSupport(options, hostTools),
    };
    this.toolbox = new Toolbox(host, resolveToolset(options.toolset));
    this.attachmentContext = {
      cwd: options.cwd,
      templates: this.templates,
      maxBytes: this.limits.maxAttachedSkillBytes,
      renderOnTrigger: options.render?.onTrigger !== false,
      sessionId: () => this.store.sessionId,
      collectInputs: options.collectInputs,
      render: (text, skill, signal) => this.render(text, skill, signal),
      report: (d) => void this.pendingDiagnostics.push(d),
    };
  }

  /**
   * Discovers skills and guidance for `options.cwd` and returns a context ready for its first step.
   *
   * @throws SkillctxError `STATE_INVALID` when `options.state` is not a state saved from `ctx.state`;
   * `INVALID_OPTIONS` for a bad `tools`, `toolset`, `toolFilter` or `limits`.
   */
  static async create(options: AgentContextOptions): Promise<AgentContext> {
    if (typeof options !== "object" || options === null)
      throw new SkillctxError("INVALID_OPTIONS", "AgentContext.create needs an options object with a cwd");
    checkInvocationOptions(options);
    const state = options.state === undefined ? emptyState() : parseContextState(options.state);
    const ctx = new AgentContext({ ...options, cache: options.cache ?? createSkillCache() }, state);
    try {
      await ctx.reload(options.signal);
    } catch (error) {
      await ctx.close();
      throw error;
    }
    return ctx;
  }

  /** The skills in use, by code point order of name. */
  get skills(): readonly Skill[] {
    return this.skillSet.skills;
  }

  /**
   * The catalog of skills in `system` (text, level, listed and left-out skills), or undefined when no
   * skill is listed. The CLI prints this, so `skillctx catalog` shows exactly what `build` puts in `system`.
   */
  get catalog(): CatalogResult | undefined {
    return this.parts.catalog;
  }

  /** The skill the model loaded last and has not unloaded. */
  get activeSkill(): string | undefined {
    return this.store.activeSkill;
  }

  /** A JSON snapshot of the conversation's state; pass it back as `options.state` to resume. Readable after `close()`. */
  get state(): ContextState {
    return this.store.snapshot();
  }

  /**
   * Registers `listener` for events of `type` (`"*"`: every event); returns the function that removes
   * it. Listeners run synchronously; one that throws is a diagnostic of the next step, never a failure.
   */
  on<T extends SkillctxEventType>(type: T | "*", listener: EventListener<T>): () => void {
    return this.events.on(type, listener);
  }

  /**
   * The state of a skill that declares one (`defineSkill({ state })`), by namespace (the skill's name
   * unless it names another): a copy, or undefined before any call set it and with no `initial`.
   */
  skillState(namespace: string): unknown {
    return this.store.skillState(namespace);
  }

  /** Replaces the programmatic skill sources; takes effect at the next step. */
  setSkills(sources: SourceInput[], options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.exclusive(options?.signal, async (signal) => {
      this.options = { ...this.options, skills: sources };
      await this.reload(signal);
    });
  }

  /** Re-reads skills and guidance from disk (metadata only where unchanged). */
  refresh(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.exclusive(options?.signal, (signal) => this.reload(signal));
  }

  /**
   * Builds what the model sees for `messages`: `system`, the messages with triggered skill text
   * attached, and the tools. Never mutates `messages`. A skill whose file cannot be read any more is
   * a diagnostic of the step; the other skills still fire.
   *
   * @throws SkillctxError `MESSAGES_INVALID` for messages that are not an array of `Message`s (nothing
   * is recorded); `CONTEXT_CLOSED` after `close()`. Rejects with the signal's reason when aborted.
   */
  buildContext(messages: readonly Message[], options: { signal?: AbortSignal } = {}): Promise<ContextStep> {
    return this.exclusive(options?.signal, (signal) =>
      this.telemetry.step((notes) => this.step(messages, signal, notes)),
    );
  }

  /**
   * Invokes skill `name` for the user, as typing `/name args` would (a Cursor manual rule: `@name`), and
   * returns the activation. It takes effect at the next step: the body (rendered, `args` substituted,
   * capped) is attached, frozen, to the last user message new in that step, or, when the step brings
   * no new user message, to its newest message; a step without messages leaves it for the next one.
   * The step reports the same activation (with `messageIndex`) in `activated`.
   *
   * @throws SkillctxError `SKILL_NOT_FOUND` for an unknown name; `SKILL_NOT_INVOCABLE` for a skill the
   * user may not invoke (`user-invocable: false`, repository guidance); `INVALID_ARGUMENTS` when `name`
   * or `args` is not a string; `CONTEXT_CLOSED` after `close()`.
   * @example
   * ctx.invoke("deploy", "staging --dry-run"); // { skill: "deploy", trigger: "command", match: "/deploy staging --dry-run" }
   * const step = await ctx.buildContext(messages); // the deploy body is attached to the last user message
   */
  invoke(name: string, args?: string): Activation {
    this.assertOpen();
    const { invocation, activation } = resolveInvocation(this.skillSet, name, args);
    this.invocations.push(invocation);
    return activation;
  }

  /**
   * Runs a tool call of the model: a skill tool, a host tool's `execute` or a provider's (MCP) tool.
   * Never throws for bad model input (unknown tool, wrong arguments, a tool the active skill does not
   * allow): those are results with `isError: true`. Rejects when `signal` is aborted and, with
   * `CONTEXT_CLOSED`, after `close()`.
   */
  callTool(name: string, args: unknown, options: { signal?: AbortSignal } = {}): Promise<ToolResult> {
    const signal = options?.signal;
    if (this.closing !== undefined) return Promise.reject(closedError());
    // Skill tools read and change the state: they wait their turn. Host and MCP tools do not touch it.
    if (this.toolbox.runsExclusive(name) && !runsBeside(name))
      return this.exclusive(signal, (linked) => this.observedCall(name, args, linked));
    return this.run(signal, (linked) => this.observedCall(name, args, linked));
  }

  /**
   * The tools the next step lists; `all: true` ignores the active skill's allowed-tools (for adapters that register tools once).
   *
   * @throws SkillctxError `CONTEXT_CLOSED` after `close()`.
   */
  listTools(options: { all?: boolean } = {}): ToolDefinition[] {
    if (this.closing !== undefined) throw closedError();
    return options?.all === true ? this.toolbox.allDefinitions() : this.toolbox.definitions();
  }

  /**
   * {@link listTools} once the MCP servers being started (by a skill just loaded or fired) have listed
   * their tools: for adapters whose framework collects the next turn's tools before the step is built.
   *
   * @throws SkillctxError `CONTEXT_CLOSED` after `close()`. Rejects with the signal's reason when aborted.
   */
  async listToolsSettled(options: { all?: boolean; signal?: AbortSignal } = {}): Promise<ToolDefinition[]> {
    await this.run(options?.signal, () => this.servers.settled());
    return this.listTools(options);
  }

  /**
   * Stops everything the context started: aborts the steps, renders, scripts and tool calls in flight
   * and closes the MCP servers. Idempotent: later calls return the same promise.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.lifetime.abort(closedError());
      // Aborted renders and scripts settle only once their process groups are gone, so waiting for them
      // means nothing is left running; a host tool that ignores its signal cannot hold close() for long.
      await within(Promise.allSettled([...this.inflight]), CLOSE_WAIT_MS);
      await this.hotReload.close();
      await this.servers.close();
    })();
    return this.closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // --- serialisation and lifetime ------------------------------------------------------------

  // Runs `operation` in turn (after every exclusive operation asked for before it), with a signal that
  // aborts when the caller's does or the context closes. Dropped while waiting for its turn, it rejects
  // with the signal's reason (close() aborts with CONTEXT_CLOSED).
  private async exclusive<T>(
    signal: AbortSignal | undefined,
    operation: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (this.closing !== undefined) throw closedError();
    const turn = this.queue.acquire(signal, this.lifetime.signal);
    if (turn !== undefined) await turn;
    try {
      return await this.run(signal, operation);
    } finally {
      this.queue.release();
    }
  }

  // Runs `operation` now, with a signal linked to the caller's and to close(); reports CONTEXT_CLOSED
  // when close() interrupted it.
  private async run<T>(signal: AbortSignal | undefined, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.closing !== undefined) throw closedError();
    const linked = signal === undefined ? this.unlinked : linkSignals(signal, this.lifetime.signal);
    try {
      linked.signal.throwIfAborted();
      return await this.tracked(operation(linked.signal));
    } catch (error) {
      throw this.closing !== undefined && !isClosedError(error) ? closedError(error) : error;
    } finally {
      linked.dispose();
    }
  }

  // Remembers `work` until it settles, for close().
  private async tracked<T>(work: Promise<T>): Promise<T> {
    this.inflight.add(work);
    try {
      return await work;
    } finally {
      this.inflight.delete(work);
    }
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw closedError();
  }

  // --- a step ----------------------------------------------------------------------------------

  private async step(messages: readonly Message[], signal: AbortSignal, observed?: StepNotes): Promise<ContextStep> {
    if (this.hotReload.due()) await this.reload(signal);
    const skills = this.skillSet;
    const scan = this.tracker.scan(messages, {
      skills,
      cwd: this.options.cwd,
      withTouched: this.nested.enabled,
      isSkillTool: (name) => this.toolbox.kindOf(name) === "skill",
    });
    const notes: Diagnostic[] = [...scan.notes];
    const invoked =
      this.invocations.length === 0 ? { pending: [], placed: 0 } : this.placeInvocations(messages, skills, notes);
    const pending = invoked.pending.length === 0 ? scan.pending : [...scan.pending, ...invoked.pending];
    const lookNested =
      scan.touched.length > 0 && this.nested.hasWork(scan.touched, (folder) => this.store.isNoted(folder));
    const discovery = lookNested ? await this.discoverNested(scan.touched, skills, signal) : undefined;
    // Most steps fire nothing: they skip the attachment work altogether.
    const prepared =
      pending.length === 0
        ? []
        : await Promise.all(pending.map((p) => buildAttachment(p, this.attachmentContext, signal)));
    signal.throwIfAborted();
    const due = this.store.due;
    const reattached = due.length === 0 ? undefined : this.reattach(due, messages, skills, pending);

    const fired: PendingActivation[] = [];
    const built: BuiltAttachment[] = [];
    pending.forEach((p, i) => {
      if (prepared[i] === undefined) return;
      fired.push(p);
      built.push(prepared[i]);
    });
    const carriers: Carrier[] = [];
    built.forEach(({ attachment, body }) => {
      if (attachment.trigger === "command")
        carriers.push({
          skill: attachment.skill,
          kind: "command",
          fingerprint: attachment.fingerprint,
          match: attachment.match,
          body,
        });
    });
    const revealed = discovery?.found ?? [];
    const made = [
      ...(reattached?.attachments ?? []),
      ...built.map((b) => b.attachment),
      ...revealed.flatMap((f) => (f.note === undefined ? [] : [f.note])),
      ...this.hotReload.note(messages.length, (index) => this.tracker.fingerprintAt(index), skills),
    ];
    if (observed !== undefined) observed.made = made;
    const committed = this.tracker.commit(messages, {
      attachments: made,
      carriers,
      loadCarrier: scan.loadCarrier,
      dropCarriers: reattached?.dropped,
      revealed: revealed.filter((f) => f.skills.length > 0).map((f) => f.folder),
    });
    this.invocations.splice(0, invoked.placed);
    if (discovery !== undefined) {
      this.nested.markChecked(discovery.checked);
      this.skillSet = withNestedSkills(
        this.skillSet,
        revealed.flatMap((f) => f.skills),
      );
    }
    this.assertOpen();
    if (fired.length > 0)
      this.servers.activate(
        fired.map((p) => p.skill),
        signal,
      );
    await this.servers.settled();
    await this.toolbox.prepareCodeTools(signal);
    const tools = this.toolbox.definitions();

    const activated: Activation[] = [
      ...this.pendingActivations,
      ...fired.map((p) => activationOf(p.skill, { trigger: p.trigger, match: p.match, messageIndex: p.index })),
    ];
    const diagnostics = [
      ...this.pendingDiagnostics,
      ...notes,
      ...(discovery?.diagnostics ?? []),
      ...(reattached?.diagnostics ?? []),
    ];
    this.pendingActivations = [];
    this.pendingDiagnostics = [];
    return {
      system: this.parts.system,
      messages: committed.messages,
      attachments: committed.attachments,
      tools,
      activated,
      diagnostics,
    };
  }

  // `ctx.invoke` calls become commands on the last new user message, else on the newest message; with no message they wait.
  private placeInvocations(
    messages: readonly Message[],
    skills: SkillSet,
    notes: Diagnostic[],
  ): { pending: PendingActivation[]; placed: number } {
    const index = this.tracker.invocationIndex(messages);
    if (index < 0) return { pending: [], placed: 0 };
    const placed = this.invocations.length;
    const at = { index, fingerprint: this.tracker.fingerprintAt(index)!, message: messages[index]! };
    return { pending: invocationHits(this.invocations.slice(0, placed), skills, at, notes), placed };
  }

  // Bodies due again after condensation, to the newest message; skills invoked in this step are attached afresh.
  private reattach(
    due: Carrier[],
    messages: readonly Message[],
    skills: SkillSet,
    pending: readonly PendingActivation[],
  ): Reattachments {
    const context = {
      cwd: this.options.cwd,
      templates: this.templates,
      skills,
      maxSkillBytes: this.limits.maxReattachedSkillBytes,
      maxTotalBytes: this.limits.maxReattachedTotalBytes,
      frozen: (key: string) => this.store.frozen(key),
    };
    const invokedNow = new Set(pending.filter((p) => p.trigger === "command").map((p) => p.skill.name));
    return reattachments(due, this.tracker.fingerprintAt(messages.length - 1), context, invokedNow);
  }

  private discoverNested(
    touched: Parameters<NestedSkills["discover"]>[0],
    skills: SkillSet,
    signal: AbortSignal,
  ): Promise<NestedDiscovery> {
    return this.nested.discover(touched, {
      skills,
      revealed: this.store.nested,
      isNoted: (folder) => this.store.isNoted(folder),
      templates: this.templates,
      catalogFormat: this.options.catalog?.format,
      loadInstruction: this.toolbox.toolset.loadInstruction,
      disabled: new Set(this.options.disabled ?? []),
      signal,
    });
  }

  // ${CLAUDE_SKILL_DIR}, ${SKILL_DIR} and ${CLAUDE_SESSION_ID} in a body the model loads (argument placeholders stay
  // without `args`: no user arguments; a fork skill run by execute_skill gets the request as its arguments).
  private substituteVariables(text: string, skill: Skill, args?: string): string {
    return substitute(text, { skillDir: skillDirOf(skill), sessionId: this.store.sessionId, args }).text;
  }

  // --- skills, guidance and system ---------------------------------------------------------------

  private async reload(signal: AbortSignal | undefined): Promise<void> {
    const o = this.options;
    // Remote sources (git, URL, MCP) and their lockfile load only when a context has one.
    const sources: ResolvedSources = !(o.skills ?? []).some(isRemoteSource)
      ? { local: (o.skills ?? []) as SkillSourceInput[], remote: [], diagnostics: [] }
      : await (await import("../sources/resolve-sources.js")).resolveSources(o.skills, {
          cwd: o.cwd,
          cacheDir: o.cacheDir ?? defaultCacheDir(o.homeDir),
          lock: o.lock ?? "update",
          offline: o.offline ?? false,
          signal,
        });
    this.assertOpen();
    await this.hotReload.sources(o, sources.remote);
    const skillSet = await loadSkillSet({
      cwd: o.cwd,
      skills: sources.local,
      remote: sources.remote,
      verify: o.verify,
      userSkills: o.userSkills,
      homeDir: o.homeDir,
      model: o.model,
      disabled: o.disabled,
      guidance: o.guidance,
      trust: o.trust,
      cache: o.cache,
      signal,
    });
    this.assertOpen();
    const diagnostics: Diagnostic[] = [...sources.diagnostics, ...skillSet.diagnostics];
    const guidanceText = new Map<string, string>();
    for (const skill of skillSet.guidance) {
      const text = await this.frozenGuidance(skill, signal, diagnostics);
      if (text !== undefined) guidanceText.set(skill.name, text);
    }
    const parts = buildSystem({
      systemPrompt: o.systemPrompt,
      skills: {
        ...skillSet,
        // Guidance that could not be read is left out of `system` (a diagnostic says why).
        guidance: skillSet.guidance.filter((skill) => guidanceText.has(skill.name)),
      },
      guidanceText,
      cwd: o.cwd,
      templates: this.templates,
      catalog: o.catalog,
      maxGuidanceBytes: this.limits.maxGuidanceBlockBytes,
      toolset: { loadInstruction: this.toolbox.toolset.loadInstruction, searchTool: SEARCH_TOOL },
    });
    // Nested skill folders revealed earlier in the conversation (or in a resumed one) join again, outside `system`.
    const nested = await this.nested.restore(
      this.store.nested,
      skillSet,
      new Set(o.disabled ?? []),
      signal,
      diagnostics,
    );
    this.assertOpen();
    const previous = this.skillSet as SkillSet | undefined;
    this.skillSet = withNestedSkills(skillSet, nested);
    this.parts = this.hotReload.settle(previous, this.skillSet, parts);
    // Skills that declare state start from their initial state (a resumed conversation keeps its own).
    const declared = declaredStates(this.skillSet.skills);
    for (const { namespace, value } of declared.states)
      if (this.store.skillState(namespace) === undefined) this.store.setSkillState(namespace, value);
    diagnostics.push(...declared.diagnostics);
    this.pendingDiagnostics.push(...diagnostics, ...parts.diagnostics);
    // The conversation is left as it is: new skills fire on new messages only, so the prefix stays stable.
    // Servers of attached skills are offered for the conversation, those of the loaded skill until unloaded.
    // The project's own .mcp.json / .cursor/mcp.json servers start with them (trust-gated).
    this.servers.useProjectConfig(o.cwd, o.homeDir);
    const attached = this.store.attachments.filter((a) => a.trigger !== "catalog").map((a) => a.skill);
    await this.servers.reload(this.skillSet, [...new Set(attached)], signal, this.store.activeSkill);
  }

  // Guidance with commands is rendered once and frozen in state, so `system` stays byte-stable.
  private async frozenGuidance(
    skill: Skill,
    signal: AbortSignal | undefined,
    diagnostics: Diagnostic[],
  ): Promise<string | undefined> {
    const key = `guidance:${skill.name}`;
    const frozen = this.store.frozen(key);
    if (frozen !== undefined) return frozen;
    try {
      const content = await readSkillContent(skill, signal === undefined ? {} : { signal });
      const text = await this.render(content, skill, signal);
      if (text !== content) this.store.freeze(key, text);
      return text;
    } catch (error) {
      signal?.throwIfAborted();
      diagnostics.push(
        diagnostic("SKILL_READ_FAILED", "error", `guidance "${skill.name}" is left out: ${errorText(error)}`, {
          path: skill.source.path,
        }),
      );
      return undefined;
    }
  }

  private render(text: string, skill: Skill, signal: AbortSignal | undefined): Promise<string> {
    return renderSkillText(text, skill, {
      cwd: this.options.cwd,
      trust: this.options.trust,
      settings: this.options.render,
      templates: this.templates,
      signal: signal ?? this.lifetime.signal,
      report: (found) => this.pendingDiagnostics.push(...found),
      events: this.events,
    });
  }

  // --- sub-agents (execute_skill) -----------------------------------------------------------------

  // What execute_skill's sub-agents use: each call of the skill's code tools takes the context's turn
  // (execute_skill itself runs beside steps, so a sub-agent's state-changing call cannot deadlock).
  private subAgentSupport(options: AgentContextOptions, hostTools: readonly HostTool[]): SubAgentSupport {
    return createSubAgentSupport({
      run: options.runSubAgent,
      settings: options.subAgent,
      hostTools,
      inTurn: (signal, operation) => this.exclusive(signal, operation),
    });
  }

  // --- what the tools see of the state -------------------------------------------------------------

  // The narrow view of the state the skill tools get: the store writes, the engine adds what goes with
  // it (the `load` activation, MCP servers started and withdrawn).
  private toolStateView(): SkillState {
    const store = this.store;
    return {
      get activeSkill() {
        return store.activeSkill;
      },
      activate: (name) => {
        const previous = store.activate(name);
        const skill = this.skillSet.byName.get(name);
        const activation: Activation =
          skill === undefined ? { skill: name, trigger: "load" } : activationOf(skill, { trigger: "load" });
        this.pendingActivations.push(activation);
        if (previous !== undefined) this.telemetry.unloaded(previous);
        this.telemetry.activated(activation);
        if (skill !== undefined) this.servers.load(skill, this.lifetime.signal);
        // The skill that was active is unloaded: its MCP tools are withdrawn (servers of fired skills stay).
        if (previous !== undefined) this.servers.deactivate(previous);
        return previous;
      },
      deactivate: () => {
        const name = store.deactivate();
        if (name !== undefined) this.servers.deactivate(name);
        if (name !== undefined) this.telemetry.unloaded(name);
        return name;
      },
      frozen: (key) => store.frozen(key),
      freeze: (key, text) => store.freeze(key, text),
      skillState: (namespace) => store.skillState(namespace),
      setSkillState: (namespace, value) => store.setSkillState(namespace, value),
    };
  }

  // --- what the events and spans read ------------------------------------------------------------

  // A tool call through the toolbox, observed (events, span) when someone listens or traces.
  private observedCall(name: string, args: unknown, signal: AbortSignal): Promise<ToolResult> {
    const kind = this.toolbox.kindOf(name);
    const skill = () =>
      (kind === "provider"
        ? this.servers.skillOf(name)
        : kind === "code"
          ? this.toolbox.codeToolSkill(name)
          : undefined) ?? this.store.activeSkill;
    const info = { name: typeof name === "string" ? name : String(name), kind, skill };
    return this.telemetry.tool(info, args, (callId) => this.toolbox.call(name, args, { signal, callId }));
  }

  private telemetrySources(): StepSources {
    const self = this;
    return {
      get catalog() {
        return self.parts.catalog;
      },
      guidance: () => this.parts.guidance ?? [],
      present: () => this.tracker.presentAttachments(),
      messageIndexOf: (fingerprint) => this.tracker.messageIndexOf(fingerprint),
      loaded: () => {
        const skill = this.store.activeSkill;
        const body = skill === undefined ? undefined : this.store.frozen(loadKey(skill));
        return skill === undefined || body === undefined ? undefined : { skill, body };
      },
    };
  }
}

/** How long `close()` waits for aborted work to settle (a process group's SIGTERM grace and SIGKILL fit well inside). */
const CLOSE_WAIT_MS = 5_000;
