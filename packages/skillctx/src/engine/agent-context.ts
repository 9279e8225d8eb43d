import type { Diagnostic, Skill, SkillSourceInput } from "@skillctx/core";
import { createSkillCache, SkillctxError } from "@skillctx/core";
import type { Message } from "../messages.js";
import { ConversationTracker } from "./conversation.js";
import type { PendingActivation } from "./conversation.js";
import type { AgentContextOptions } from "./options.js";
import { renderSkillText } from "./render-skill.js";
import { SkillServerPool } from "./skill-servers.js";
import { loadSkillSet, skillLocation } from "./skill-set.js";
import type { SkillSet } from "./skill-set.js";
import { ContextStateSchema, emptyState } from "./state.js";
import type { Attachment, ContextState } from "./state.js";
import { buildSystem } from "./system-prompt.js";
import type { SystemParts } from "./system-prompt.js";
import { fillInputs } from "./task-inputs.js";
import { defaultTemplates } from "./templates.js";
import type { Templates } from "./templates.js";
import { checkHostTools } from "../tools/host-tools.js";
import { resolveToolset } from "../tools/presets/index.js";
import { SEARCH_TOOL } from "../tools/presets/common.js";
import { checkToolFilter, Toolbox } from "../tools/toolbox.js";
import type { ToolProvider, ToolResult } from "../tools/tool-provider.js";

/** Why a skill entered the context in a step. */
export interface Activation {
  skill: string;
  trigger: "keyword" | "task" | "path" | "load";
  /** The keyword or path that fired it. */
  match?: string;
  /** Index (in the step's `messages`) of the message it was attached to. */
  messageIndex?: number;
}

/** A tool the model may call, as JSON Schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What one agent step sends to the model. */
export interface ContextStep {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  activated: Activation[];
  diagnostics: Diagnostic[];
}

/**
 * The context engine of one conversation. Call {@link AgentContext.buildContext} on every step.
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
  private readonly tracker: ConversationTracker;
  private readonly templates: Templates;
  private pendingDiagnostics: Diagnostic[] = [];
  private pendingActivations: Activation[] = [];
  private closed = false;
  private readonly toolbox: Toolbox;
  /** Sources of tools beside the host's and the skill tools (the MCP bridge registers here); listed after them. */
  readonly providers: ToolProvider[] = [];
  private readonly servers: SkillServerPool;

  private constructor(
    private options: AgentContextOptions,
    private readonly current: ContextState,
  ) {
    this.templates = { ...defaultTemplates, ...options.templates };
    this.tracker = new ConversationTracker(current);
    this.servers = new SkillServerPool({
      trust: () => this.options.trust,
      settings: options.mcp,
      report: (found) => void this.pendingDiagnostics.push(...found),
    });
    this.providers.push(this.servers);
    const self = this;
    const hostTools = checkHostTools(options.tools);
    const toolFilter = checkToolFilter(options.toolFilter);
    this.toolbox = new Toolbox(
      {
        get cwd() { return self.options.cwd; },
        get skills() { return self.skillSet; },
        get catalog() { return self.parts.catalog; },
        get trust() { return self.options.trust; },
        get settings() { return self.options.skillTools ?? {}; },
        state: current,
        toolFilter,
        hostTools,
        providers: this.providers,
        render: (text, skill, signal) => this.render(text, skill, signal),
        activated: (activation) => {
          this.pendingActivations.push(activation);
          const skill = this.skillSet.byName.get(activation.skill);
          if (skill !== undefined) this.servers.activate([skill]);
        },
        diagnostic: (d) => void this.pendingDiagnostics.push(d),
      },
      resolveToolset(options.toolset),
    );
  }

  /** Discovers skills and guidance for `options.cwd` and returns a context ready for its first step. */
  static async create(options: AgentContextOptions): Promise<AgentContext> {
    const state = options.state === undefined ? emptyState() : ContextStateSchema.parse(structuredClone(options.state));
    const ctx = new AgentContext({ ...options, cache: options.cache ?? createSkillCache() }, state);
    await ctx.reload(options.signal);
    return ctx;
  }

  /** The skills in use, by code point order of name. */
  get skills(): readonly Skill[] {
    return this.skillSet.skills;
  }

  /** The skill the model loaded last and has not unloaded. */
  get activeSkill(): string | undefined {
    return this.current.activeSkill;
  }

  /** A JSON snapshot of the conversation's state; pass it back as `options.state` to resume. */
  get state(): ContextState {
    this.tracker.syncState();
    return structuredClone(this.current);
  }

  /** Replaces the programmatic skill sources; takes effect at the next step. */
  async setSkills(sources: SkillSourceInput[], options: { signal?: AbortSignal } = {}): Promise<void> {
    this.options = { ...this.options, skills: sources };
    await this.reload(options.signal);
  }

  /** Re-reads skills and guidance from disk (metadata only where unchanged). */
  async refresh(options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.reload(options.signal);
  }

  /**
   * Builds what the model sees for `messages`: `system`, the messages with triggered skill text
   * attached, and the tools. Never mutates `messages`.
   */
  async buildContext(messages: readonly Message[], options: { signal?: AbortSignal } = {}): Promise<ContextStep> {
    this.assertOpen();
    options.signal?.throwIfAborted();
    const pending = this.tracker.scan(messages, this.skillSet, this.options.cwd);
    const attachments = await Promise.all(pending.map((p) => this.attachment(p, options.signal)));
    const out = this.tracker.commit(messages, attachments);
    this.servers.activate(pending.map((p) => p.skill), options.signal);
    await this.servers.settled();
    const tools = this.toolbox.definitions();

    const activated: Activation[] = [
      ...this.pendingActivations,
      ...pending.map((p) => ({ skill: p.skill.name, trigger: p.trigger, match: p.match, messageIndex: p.index })),
    ];
    const diagnostics = this.pendingDiagnostics;
    this.pendingActivations = [];
    this.pendingDiagnostics = [];
    return { system: this.parts.system, messages: out, tools, activated, diagnostics };
  }

  /**
   * Runs a tool call of the model: a skill tool, a host tool's `execute` or a provider's (MCP) tool.
   * Never throws for bad model input (unknown tool, wrong arguments, a tool the active skill does not
   * allow): those are results with `isError: true`. Rejects only when `signal` is aborted.
   */
  async callTool(name: string, args: unknown, options: { signal?: AbortSignal } = {}): Promise<ToolResult> {
    this.assertOpen();
    return this.toolbox.call(name, args, options);
  }

  /** The tools the next step lists; `all: true` ignores the active skill's allowed-tools (for adapters that register tools once). */
  listTools(options: { all?: boolean } = {}): ToolDefinition[] {
    return options.all === true ? this.toolbox.allDefinitions() : this.toolbox.definitions();
  }

  /** Stops everything the context started. Calling it twice is harmless. */
  async close(): Promise<void> {
    this.closed = true;
    await this.servers.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async reload(signal: AbortSignal | undefined): Promise<void> {
    const o = this.options;
    this.skillSet = await loadSkillSet({
      cwd: o.cwd,
      skills: o.skills,
      userSkills: o.userSkills,
      homeDir: o.homeDir,
      model: o.model,
      disabled: o.disabled,
      guidance: o.guidance,
      // Guidance imports may leave the repository only when the caller says so explicitly.
      trustUserScope: o.trust?.user === true,
      cache: o.cache,
      signal,
    });
    this.pendingDiagnostics.push(...this.skillSet.diagnostics);
    const guidanceText = new Map<string, string>();
    for (const skill of this.skillSet.guidance) guidanceText.set(skill.name, await this.frozenGuidance(skill, signal));
    this.parts = buildSystem({
      systemPrompt: o.systemPrompt,
      skills: this.skillSet,
      guidanceText,
      cwd: o.cwd,
      templates: this.templates,
      catalog: o.catalog,
      toolset: { loadInstruction: this.toolbox.toolset.loadInstruction, searchTool: SEARCH_TOOL },
    });
    // The conversation is left as it is: new skills fire on new messages only, so the prefix stays stable.
    const active = [...this.current.attachments.map((a) => a.skill), ...(this.current.activeSkill === undefined ? [] : [this.current.activeSkill])];
    await this.servers.reload(this.skillSet, active, signal);
  }

  // Guidance with commands is rendered once and frozen in state, so `system` stays byte-stable.
  private async frozenGuidance(skill: Skill, signal: AbortSignal | undefined): Promise<string> {
    const key = `guidance:${skill.name}`;
    const frozen = this.current.rendered[key];
    if (frozen !== undefined) return frozen;
    const text = await this.render(skill.content, skill, signal);
    if (text !== skill.content) this.current.rendered[key] = text;
    return text;
  }

  private async attachment(p: PendingActivation, signal: AbortSignal | undefined): Promise<Attachment> {
    let body = p.skill.content;
    let missing: NonNullable<Skill["inputs"]> = [];
    if (p.skill.trigger.type === "task") {
      const inputs = p.skill.trigger.inputs;
      const values =
        inputs.length === 0
          ? {}
          : ((await this.options.collectInputs?.({ skill: p.skill, inputs, message: p.message, signal })) ?? {});
      ({ text: body, missing } = fillInputs(body, inputs, values));
    }
    if (this.options.render?.onTrigger !== false) body = await this.render(body, p.skill, signal);
    const text = this.templates.injection({
      skill: p.skill.name,
      trigger: p.trigger,
      match: p.match,
      location: skillLocation(p.skill, this.options.cwd),
      body,
      missingInputs: missing,
    });
    return { skill: p.skill.name, trigger: p.trigger, match: p.match, fingerprint: p.fingerprint, text };
  }

  private render(text: string, skill: Skill, signal: AbortSignal | undefined): Promise<string> {
    return renderSkillText(text, skill, {
      cwd: this.options.cwd,
      trust: this.options.trust,
      settings: this.options.render,
      templates: this.templates,
      signal,
      report: (found) => this.pendingDiagnostics.push(...found),
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new SkillctxError("CONTEXT_CLOSED", "this AgentContext was closed; create a new one");
  }
}
