/**
 * The typed events of a context (`ctx.on`, the `telemetry.onEvent` option). A leaf module: engine, tools,
 * code tools, sources and adapters import these types; the bus is `events/event-bus.ts`.
 */
import type { Operation } from "fast-json-patch";
import type { Diagnostic } from "@skillctx/core";
import type { Activation } from "../context-types.js";

/** Tokens (o200k_base) one skill adds to a step, by part. See `step.usage`. */
export interface SkillUsage {
  skill: string;
  /** Its catalog entry in `system`. */
  catalog: number;
  /** Its guidance text in `system`. */
  guidance: number;
  /** Text attached to messages for it in this step's output (every attachment it has, not only new ones). */
  attachments: number;
  /** Its loaded body (the `load_skill` result in the conversation), when it is the active skill. */
  loaded: number;
  total: number;
}

/** Per-skill token cost of one step (`step.usage`). */
export interface StepUsage {
  /** Skills that add anything, by code point order of name. */
  skills: SkillUsage[];
  /** Sum of `skills[].total`. */
  total: number;
}

export interface StepEvent {
  type: "step";
  /** 1 for the context's first step. */
  step: number;
  activations: Activation[];
  /** Attachments new in this step (text bytes, not the text). */
  attachments: { skill: string; trigger: string; messageIndex: number; bytes: number }[];
  catalog: { level: string; listed: number; tokens: number } | undefined;
  usage: StepUsage | undefined;
  durationMs: number;
}

export interface SkillActivatedEvent {
  type: "skill.activated";
  skill: string;
  trigger: Activation["trigger"];
  match?: string | undefined;
  messageIndex?: number | undefined;
}

export interface SkillUnloadedEvent {
  type: "skill.unloaded";
  skill: string;
}

export interface ToolCalledEvent {
  type: "tool.called";
  /** Unique per call in this context (`call-1`, ...): pairs `tool.called` with `tool.finished`. */
  callId: string;
  name: string;
  /** The skill the tool belongs to (a skill's own tool, a script tool), or the active skill for skill tools. */
  skill?: string | undefined;
  /** Who answers it: `host` (a host tool), `skill` (load_skill, ...), `provider` (MCP), or another toolbox kind (code tools). */
  kind?: string | undefined;
  /** The arguments as the model sent them (a copy: changing it changes nothing). */
  args: unknown;
}

export interface ToolFinishedEvent {
  type: "tool.finished";
  callId: string;
  name: string;
  skill?: string | undefined;
  kind?: string | undefined;
  durationMs: number;
  isError: boolean;
  /** The error text, for an error result. */
  error?: string | undefined;
  /** Bytes of the result's content. */
  bytes: number;
}

export interface ResourceReadEvent {
  type: "resource.read";
  skill: string;
  /** Relative to the skill's folder. */
  path: string;
  /** UTF-8 bytes of the text returned. */
  bytes: number;
  /** The file was longer than `maxResourceBytes` and cut (the result tells where to read on). */
  truncated?: boolean | undefined;
}

export interface ScriptFinishedEvent {
  type: "script.finished";
  skill: string;
  script: string;
  exitCode: number | undefined;
  durationMs: number;
  bytes: number;
  truncated: boolean;
  timedOut: boolean;
}

export interface CommandFinishedEvent {
  type: "command.finished";
  skill: string;
  command: string;
  exitCode: number | undefined;
  durationMs: number;
  truncated: boolean;
  /** Not run: the skill's scope is not trusted (the text got the "not run" marker). */
  skipped: boolean;
  /** Killed at the render timeout. */
  timedOut?: boolean | undefined;
  /** Why the span became an `[Error: …]` marker (a non-zero exit, a timeout, a command that could not start). */
  error?: string | undefined;
  /** 1-based line of the `!` in the rendered text. */
  line?: number | undefined;
}

export interface McpServerEvent {
  type: "mcp.server.started" | "mcp.server.stopped" | "mcp.server.crashed";
  server: string;
  skill?: string | undefined;
  reason?: string | undefined;
}

export interface StateDeltaEvent {
  type: "state.delta";
  namespace: string;
  skill: string;
  /** RFC 6902 operations from the state before the call to the state after it. */
  patch: Operation[];
}

/**
 * The skills in use are out of date (`watch` only): files below the watched skill sources changed and
 * then stayed quiet for `debounceMs`, or a remote source's `ttlMs` ran out. Hot reload emits it once
 * per quiet spell, as soon as the spell ends, from the watcher's timer (no step runs it). The context
 * reloads before its next step (or at `refresh()`); a reload that then adds, changes or removes a
 * skill emits {@link SkillsChangedEvent}. A host that must act before its next step (the skill server
 * serves a new snapshot) calls `refresh()` on it instead of polling.
 *
 * @example
 * ctx.on("skills.stale", () => void ctx.refresh());
 */
export interface SkillsStaleEvent {
  type: "skills.stale";
  /** `files`: changes on disk; `ttl`: a remote source is due again. */
  reason: "files" | "ttl";
  /** The changed files and folders (absolute, code-point order), at most 100; empty for `ttl`. */
  paths: string[];
}

/**
 * A reload added, changed or removed skills (by name, code-point order). Emitted by the reload that
 * follows {@link SkillsStaleEvent}, by `refresh()` and by `setSkills()`, when the context compares loads
 * (`watch` or `catalogUpdates` set, or a listener of this event).
 */
export interface SkillsChangedEvent {
  type: "skills.changed";
  added: string[];
  changed: string[];
  removed: string[];
}

/** A finding of the context, as it is recorded for the next step's `diagnostics`. */
export interface DiagnosticEvent {
  type: "diagnostic";
  diagnostic: Diagnostic;
}

/** Every event a context emits. */
export type SkillctxEvent =
  | StepEvent
  | SkillActivatedEvent
  | SkillUnloadedEvent
  | ToolCalledEvent
  | ToolFinishedEvent
  | ResourceReadEvent
  | ScriptFinishedEvent
  | CommandFinishedEvent
  | McpServerEvent
  | StateDeltaEvent
  | SkillsStaleEvent
  | SkillsChangedEvent
  | DiagnosticEvent;

export type SkillctxEventType = SkillctxEvent["type"];
export type EventOf<T extends SkillctxEventType> = Extract<SkillctxEvent, { type: T }>;
export type EventListener<T extends SkillctxEventType = SkillctxEventType> = (event: EventOf<T>) => void;

/** Where code that emits events sends them (the bus; a no-op when nobody listens). */
export interface EventSink {
  /** Whether any listener is registered for `type` (build the event only then). */
  wants(type: SkillctxEventType): boolean;
  emit(event: SkillctxEvent): void;
}
