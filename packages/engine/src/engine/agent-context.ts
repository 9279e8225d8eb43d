import * as path from "node:path";
import { statSync } from "node:fs";
import type { CatalogResult, Skill } from "@skillctx/core";
import { createSkillCache, SkillctxError } from "@skillctx/core";
import type { Activation, ContextStep, ToolDefinition, ToolResult } from "../context-types.js";
import type { EventListener, SkillctxEventType } from "../events/types.js";
import type { Message } from "../messages.js";
import type { SourceInput } from "@skillctx/sources";
import { closedError } from "./lifetime.js";
import { checkOptions } from "./check-options.js";
import type { AgentContextOptions } from "./options.js";
import { emptyState, parseContextState } from "./state.js";
import type { ContextState } from "./state.js";
import type { EngineDeps } from "./step-deps.js";

/** The engine's running parts (engine-core.ts), imported by the first `create`. */
type EngineCore = typeof import("./engine-core.js");

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
  /** What the step and reload pipelines and the tool-state view work on; they never see this façade. */
  private readonly deps: EngineDeps;
  /** The engine's running parts, imported by the first `create`. */
  private readonly core: EngineCore;

  private constructor(core: EngineCore, deps: EngineDeps) {
    this.core = core;
    this.deps = deps;
  }

  /**
   * Discovers skills and guidance for `options.cwd` and returns a context ready for its first step.
   *
   * @throws SkillctxError `STATE_INVALID` when `conversation.state` is not a state saved from `ctx.state`;
   * `INVALID_OPTIONS` naming the bad option (such as `tools.host`, `tools.toolset`, `tools.filter`,
   * `conversation.limits`), or for a top-level name that is not an option (`userSkills` is `sources.userSkills`).
   */
  static async create(options: AgentContextOptions): Promise<AgentContext> {
    if (typeof options !== "object" || options === null)
      throw new SkillctxError("INVALID_OPTIONS", "AgentContext.create needs an options object with a cwd");
    checkOptions(options);
    const saved = options.conversation?.state;
    const state = saved === undefined ? emptyState() : parseContextState(saved);
    const core = await import("./engine-core.js");
    const deps = await core.startEngine(
      {
        ...options,
        cwd: folderOf(options.cwd),
        sources: { ...options.sources, cache: options.sources?.cache ?? createSkillCache() },
      },
      state,
    );
    return new AgentContext(core, deps);
  }

  /** The skills in use, by code point order of name. */
  get skills(): readonly Skill[] {
    return this.deps.live.snapshot.skillSet.skills;
  }

  /**
   * The catalog of skills in `system` (text, level, listed and left-out skills), or undefined when no
   * skill is listed. The CLI prints this, so `skillctx catalog` shows exactly what `build` puts in `system`.
   */
  get catalog(): CatalogResult | undefined {
    return this.deps.live.snapshot.parts.catalog;
  }

  /** The skill the model loaded last and has not unloaded. */
  get activeSkill(): string | undefined {
    return this.deps.store.activeSkill;
  }

  /** A JSON snapshot of the conversation's state; pass it back as `conversation.state` to resume. Readable after `close()`. */
  get state(): ContextState {
    return this.deps.store.snapshot();
  }

  /**
   * Registers `listener` for events of `type` (`"*"`: every event); returns the function that removes
   * it. Listeners run synchronously; one that throws is a diagnostic of the next step, never a failure.
   */
  on<T extends SkillctxEventType>(type: T | "*", listener: EventListener<T>): () => void {
    return this.deps.events.on(type, listener);
  }

  /**
   * The state of a skill that declares one (`defineSkill({ state })`), by namespace (the skill's name
   * unless it names another): a copy, or undefined before any call set it and with no `initial`.
   */
  skillState(namespace: string): unknown {
    return this.deps.store.skillState(namespace);
  }

  /** Replaces the programmatic skill sources; takes effect at the next step. */
  setSkills(sources: SourceInput[], options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.deps.turns.exclusive(options?.signal, async (signal) => {
      this.deps.live.skills = sources;
      await this.reload(signal);
    });
  }

  /** Re-reads skills and guidance from disk (metadata only where unchanged). */
  refresh(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.deps.turns.exclusive(options?.signal, (signal) => this.reload(signal));
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
    return this.deps.turns.exclusive(options?.signal, (signal) =>
      this.deps.telemetry.step(async (notes) => {
        // A pending hot reload (or a remote source past its ttlMs) runs first, inside this turn.
        if (this.deps.hotReload.due()) await this.reload(signal);
        return this.core.runStep(this.deps, messages, signal, notes);
      }),
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
    this.deps.turns.assertOpen();
    const { invocation, activation } = this.core.resolveInvocation(this.deps.live.snapshot.skillSet, name, args);
    this.deps.live.invocations.push(invocation);
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
    const { turns, toolbox } = this.deps;
    if (turns.closed) return Promise.reject(closedError());
    // Skill tools read and change the state: they wait their turn. Host and MCP tools do not touch it.
    if (toolbox.runsExclusive(name) && !this.core.runsBeside(name))
      return turns.exclusive(signal, (linked) => this.core.observedCall(this.deps, name, args, linked));
    return turns.run(signal, (linked) => this.core.observedCall(this.deps, name, args, linked));
  }

  /**
   * The tools the next step lists; `all: true` ignores the active skill's allowed-tools (for adapters that register tools once).
   *
   * @throws SkillctxError `CONTEXT_CLOSED` after `close()`.
   */
  listTools(options: { all?: boolean } = {}): ToolDefinition[] {
    if (this.deps.turns.closed) throw closedError();
    return options?.all === true ? this.deps.toolbox.allDefinitions() : this.deps.toolbox.definitions();
  }

  /**
   * {@link listTools} once the MCP servers being started (by a skill just loaded or fired) have listed
   * their tools: for adapters whose framework collects the next turn's tools before the step is built.
   *
   * @throws SkillctxError `CONTEXT_CLOSED` after `close()`. Rejects with the signal's reason when aborted.
   */
  async listToolsSettled(options: { all?: boolean; signal?: AbortSignal } = {}): Promise<ToolDefinition[]> {
    await this.deps.turns.run(options?.signal, () => this.deps.servers.settled());
    return this.listTools(options);
  }

  /**
   * Stops everything the context started: aborts the steps, renders, scripts and tool calls in flight
   * and closes the MCP servers. Idempotent: later calls return the same promise.
   */
  close(): Promise<void> {
    return this.core.closeEngine(this.deps);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // A reload: the new snapshot (skills, `system`, catalog) is swapped in with one assignment, then the MCP servers follow it.
  private async reload(signal: AbortSignal): Promise<void> {
    const live = this.deps.live;
    live.snapshot = await this.core.reloadSkills(this.deps, live.skills, live.snapshot, signal);
    await this.core.reloadServers(this.deps, live.snapshot, signal);
  }
}

// A cwd that is a file stands for its folder, as Codex takes `cwd.parent()` for one
// (openai/codex codex-rs/core/src/skills/loader.rs repo_skills_root).
function folderOf(cwd: string): string {
  if (typeof cwd !== "string") return cwd;
  try {
    return statSync(cwd).isFile() ? path.dirname(path.resolve(cwd)) : cwd;
  } catch {
    return cwd;
  }
}
