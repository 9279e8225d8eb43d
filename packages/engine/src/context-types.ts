/**
 * The types that the engine (`engine/`) and the tools (`tools/`) share. A leaf module: it imports
 * neither folder, so `tools/` never imports `engine/` and the two cannot form a cycle.
 */
import type { Diagnostic, KeywordMatcher, PathMatcher, Skill } from "@skillctx/core";
import type { Message } from "./messages.js";
import type { StepUsage } from "./events/types.js";

/** A tool the model may call, as JSON Schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The result of a tool call, as the model sees it. */
export interface ToolResult {
  content: string;
  isError?: boolean;
  /** What skillctx knows about the call beside its text (adapters pass only `content` and `isError` to the model). */
  metadata?: {
    /** The RFC 6902 change a skill's tool made to its state (the same patch as the `state.delta` event). */
    stateDelta?: { namespace: string; patch: unknown[] };
  };
}

/**
 * A source of tools beside the host's and the skill tools (for example the MCP servers of active
 * skills). `buildContext` lists `definitions()`; `callTool` routes a name to the provider that `owns` it.
 */
export interface ToolProvider {
  definitions(): ToolDefinition[];
  owns(name: string): boolean;
  call(name: string, args: unknown, options: { signal?: AbortSignal | undefined }): Promise<ToolResult>;
}

/** Why a skill entered the context in a step. */
export interface Activation {
  skill: string;
  trigger: "keyword" | "task" | "path" | "load" | "command";
  /** The keyword or path that fired it; for `command`, the text that invoked it (`/deploy staging`). */
  match?: string;
  /** Index (in the step's `messages`) of the message it was attached to. */
  messageIndex?: number;
  /** The skill's `model` field (Claude Code), for a host that honours it. */
  model?: string;
  /** The skill's `context` field (Claude Code `fork`: run it as a sub-agent), for a host that honours it. */
  context?: string;
}

/** Text the engine appended to one of the step's messages (as a trailing text part). */
export interface StepAttachment {
  /** Index in the step's `messages`. */
  messageIndex: number;
  /** The exact text appended; frozen, the same bytes every step. */
  text: string;
}

/** What one agent step sends to the model. */
export interface ContextStep {
  system: string;
  /** The host's messages; a message that carries attachments is a copy with them appended as text parts. */
  messages: Message[];
  /**
   * Every text attached to a message of `messages`, by message index and, within a message, in the
   * order appended. Adapters place these in their framework's native form (no diffing of messages).
   */
  attachments: StepAttachment[];
  tools: ToolDefinition[];
  activated: Activation[];
  diagnostics: Diagnostic[];
  /** Tokens (o200k_base) each skill adds to this step: catalog entry, guidance, attachments, loaded body. */
  usage?: StepUsage;
}

/** The skills of one configuration, indexed for a step. Rebuilt only when sources or options change. */
export interface SkillSet {
  /** Every usable skill, by code point order of name. */
  readonly skills: readonly Skill[];
  readonly byName: ReadonlyMap<string, Skill>;
  /** Always-on guidance, in the order it appears in `system`. */
  readonly guidance: readonly Skill[];
  /** Skills listed in the catalog (on-demand, keyword, task). */
  readonly catalog: readonly Skill[];
  readonly keywords: KeywordMatcher;
  readonly paths: PathMatcher;
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Skills whose scripts may run (a `scripts/` folder, a trusted scope): `run_skill_script` is offered
   * only when there is one. Unset (a set made by hand): offered whenever the skill tools are.
   */
  readonly runnableScripts?: ReadonlySet<string>;
}

/**
 * The part of a conversation's state that the skill tools may touch: the active skill and frozen
 * renderings. The engine's state owner implements it; tools never see the state object itself.
 */
export interface SkillState {
  /** The skill the model loaded last and has not unloaded. */
  readonly activeSkill: string | undefined;
  /**
   * Makes `name` the active skill (a `load` activation in the next step; its MCP servers start).
   * Returns the skill that was active before, when it was another one.
   */
  activate(name: string): string | undefined;
  /** Ends the active skill (its MCP tools are withdrawn); returns its name, or undefined when none was active. */
  deactivate(): string | undefined;
  /** A rendering frozen under `key` (`load:<name>`), or undefined. */
  frozen(key: string): string | undefined;
  /** Freezes `text` under `key`: later reads give the same bytes, across resumes. */
  freeze(key: string, text: string): void;
  /** The state of a skill that declares one (`defineSkill({ state })`), by namespace: a copy, or undefined. */
  skillState(namespace: string): unknown;
  /** Replaces a skill's state with a copy of `value` (plain JSON the caller has checked against the skill's schema). */
  setSkillState(namespace: string, value: unknown): void;
}

/**
 * Caps on the text that reaches the model. Each cut leaves a visible note in the text and a warning
 * in the step's diagnostics. (Command output has its own cap, `tools.render.maxOutputBytes`.)
 */
export interface TextLimits {
  /** UTF-8 bytes of the repository-guidance block of `system`, all guidance files together. @default 262144 */
  maxGuidanceBlockBytes?: number;
  /** UTF-8 bytes of each skill body attached to a message by a keyword, task or path trigger. @default 65536 */
  maxAttachedSkillBytes?: number;
  /** UTF-8 bytes of each skill body that `load_skill` (or a toolset's equivalent) returns. @default 65536 */
  maxLoadedSkillBytes?: number;
  /**
   * UTF-8 bytes of each invoked or loaded body re-attached after the host condensed its message away
   * (Claude Code keeps 5,000 tokens of each skill after compaction; about 4 bytes a token). @default 20000
   */
  maxReattachedSkillBytes?: number;
  /**
   * UTF-8 bytes of all bodies re-attached in one step, most recently activated first; a body that does
   * not fit is not re-attached (Claude Code's budget is 25,000 tokens). @default 100000
   */
  maxReattachedTotalBytes?: number;
}
