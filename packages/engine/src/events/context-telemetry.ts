/**
 * The events and spans of a context's steps and tool calls, in one place: `AgentContext` hands each step
 * and each tool call to {@link ContextTelemetry}, which emits `step`, `skill.activated`, `tool.called` and
 * `tool.finished`, computes `step.usage` when asked, and opens the `skillctx.step` / `skillctx.tool` spans.
 * With no listener for those events, no tracer provider and usage not forced on, a step or call goes
 * straight through (a few property reads).
 */
import { Buffer } from "node:buffer";
import type { Attributes, Span } from "@opentelemetry/api";
import type { CatalogResult } from "@skillctx/core";
import type { Activation, ContextStep, ToolResult } from "../context-types.js";
import { ContextTracing, tracerProviderRegistered } from "./otel.js";
import type { EventSink, StepEvent, StepUsage } from "./types.js";
import { UsageMeter } from "./usage.js";
import { ellipsizeUtf16, errorText } from "@skillctx/core/internal";

/** An attachment the engine made or keeps (the state's shape, read only). */
export interface ObservedAttachment {
  readonly skill: string;
  readonly trigger: string;
  readonly fingerprint: string;
  readonly text: string;
}

/** What the telemetry reads from its context, at the end of an observed step only. */
export interface StepSources {
  readonly catalog: CatalogResult | undefined;
  /** Guidance texts as they stand in `system`. */
  guidance(): readonly { name: string; text: string }[];
  /** The attachments of the step's messages, with their message index. */
  present(): readonly { attachment: ObservedAttachment; messageIndex: number }[];
  /** Index in the step's messages of the message with this fingerprint. */
  messageIndexOf(fingerprint: string): number | undefined;
  /** The active skill and its loaded body, when one is loaded. */
  loaded(): { skill: string; body: string } | undefined;
}

/** What an observed step reports back beside its result: the attachments it made. */
export interface StepNotes {
  made: readonly ObservedAttachment[];
}

/** When `step.usage` is computed: always, never, or (undefined) when a `step` listener or a recording span wants it. */
export type UsageSetting = boolean | undefined;

/** Where a tool call came from, for its events and span. */
export interface ToolCallInfo {
  name: string;
  /** Who answers it: `host`, `skill`, `provider` (MCP), or another kind of the toolbox. */
  kind: string | undefined;
  /** The skill it belongs to; called only when an event or span needs it. */
  skill: () => string | undefined;
}

export class ContextTelemetry {
  private steps = 0;
  private calls = 0;
  private readonly meter = new UsageMeter();
  private readonly tracing = new ContextTracing();

  constructor(
    private readonly events: EventSink,
    private readonly sources: StepSources,
    private readonly usage: UsageSetting,
  ) {}

  /** Runs one step; `run` gets notes to fill only when someone observes the step. */
  step(run: (notes: StepNotes | undefined) => Promise<ContextStep>): Promise<ContextStep> {
    const number = ++this.steps;
    if (
      this.usage !== true &&
      !this.events.wants("step") &&
      !this.events.wants("skill.activated") &&
      !tracerProviderRegistered()
    ) {
      return run(undefined);
    }
    return this.observedStep(number, run);
  }

  /**
   * Runs one tool call; events and a span only when someone observes it. `run` gets the call's id
   * (the `callId` of its events, passed on to code tools) when observed, else undefined.
   */
  tool(
    info: ToolCallInfo,
    args: unknown,
    run: (callId: string | undefined) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    if (!this.events.wants("tool.called") && !this.events.wants("tool.finished") && !tracerProviderRegistered())
      return run(undefined);
    return this.observedTool(info, args, run);
  }

  /** A skill the model loaded (emitted at the call; the next step lists it in `activations` too). */
  activated(activation: Activation): void {
    if (!this.events.wants("skill.activated")) return;
    this.events.emit({ type: "skill.activated", ...activation });
  }

  /** The active skill ended: `unload_skill`, or another skill loaded in its place. */
  unloaded(skill: string): void {
    if (this.events.wants("skill.unloaded")) this.events.emit({ type: "skill.unloaded", skill });
  }

  private async observedStep(
    number: number,
    run: (notes: StepNotes | undefined) => Promise<ContextStep>,
  ): Promise<ContextStep> {
    const started = performance.now();
    const span = await this.tracing.start("skillctx.step", () => ({ "skillctx.step": number }));
    const notes: StepNotes = { made: [] };
    let result: ContextStep;
    try {
      result = await (span === undefined ? run(notes) : this.tracing.within(span, () => run(notes)));
    } catch (error) {
      if (span !== undefined) {
        this.tracing.fail(span, errorText(error), error);
        span.end();
      }
      throw error;
    }
    const recording = span?.isRecording() === true;
    const wantsStep = this.events.wants("step");
    const usage =
      this.usage === true || (this.usage === undefined && (wantsStep || recording)) ? this.measure() : undefined;
    if (usage !== undefined) result.usage = usage;
    if (this.events.wants("skill.activated")) {
      for (const activation of result.activated)
        if (activation.trigger !== "load") this.events.emit({ type: "skill.activated", ...activation });
    }
    const event =
      wantsStep || recording ? this.stepEvent(number, result, notes, usage, performance.now() - started) : undefined;
    if (span !== undefined) {
      if (event !== undefined && recording) recordStep(this.tracing, span, event, result.diagnostics.length);
      span.end();
    }
    if (event !== undefined && wantsStep) this.events.emit(event);
    return result;
  }

  private stepEvent(
    number: number,
    result: ContextStep,
    notes: StepNotes,
    usage: StepUsage | undefined,
    durationMs: number,
  ): StepEvent {
    const catalog = this.sources.catalog;
    return {
      type: "step",
      step: number,
      activations: result.activated.map((a) => ({ ...a })),
      attachments: notes.made.map((a) => ({
        skill: a.skill,
        trigger: a.trigger,
        messageIndex: this.sources.messageIndexOf(a.fingerprint) ?? -1,
        bytes: Buffer.byteLength(a.text),
      })),
      catalog:
        catalog === undefined
          ? undefined
          : { level: catalog.level, listed: catalog.included.length, tokens: catalog.tokens },
      usage,
      durationMs,
    };
  }

  private measure(): StepUsage {
    const attachments = this.sources
      .present()
      .filter(({ attachment }) => attachment.trigger !== "catalog")
      .map(({ attachment }) => ({ skill: attachment.skill, text: attachment.text }));
    return this.meter.measure({
      catalog: this.sources.catalog,
      guidance: this.sources.guidance(),
      attachments,
      loaded: this.sources.loaded(),
    });
  }

  private async observedTool(
    info: ToolCallInfo,
    args: unknown,
    run: (callId: string | undefined) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const callId = `call-${++this.calls}`;
    const skill = info.skill();
    const base = { callId, name: info.name, kind: info.kind, skill };
    if (this.events.wants("tool.called")) this.events.emit({ type: "tool.called", ...base, args: copyArgs(args) });
    const started = performance.now();
    const span = await this.tracing.start("skillctx.tool", () => toolAttributes(info, callId, skill));
    let result: ToolResult;
    try {
      result = await (span === undefined ? run(callId) : this.tracing.within(span, () => run(callId)));
    } catch (error) {
      const text = errorText(error);
      if (span !== undefined) {
        this.tracing.fail(span, text, error);
        span.end();
      }
      if (this.events.wants("tool.finished")) {
        this.events.emit({
          type: "tool.finished",
          ...base,
          durationMs: performance.now() - started,
          isError: true,
          error: text,
          bytes: 0,
        });
      }
      throw error;
    }
    const isError = result.isError === true;
    const content = typeof result.content === "string" ? result.content : String(result.content);
    if (span !== undefined) {
      if (span.isRecording()) {
        this.tracing.set(span, { "skillctx.tool.result_bytes": Buffer.byteLength(content) });
        if (isError) {
          this.tracing.set(span, { "error.type": "tool_error" });
          this.tracing.fail(span, content);
        }
      }
      span.end();
    }
    if (this.events.wants("tool.finished")) {
      this.events.emit({
        type: "tool.finished",
        ...base,
        durationMs: performance.now() - started,
        isError,
        ...(isError && { error: content }),
        bytes: Buffer.byteLength(content),
      });
    }
    return result;
  }
}

function toolAttributes(info: ToolCallInfo, callId: string, skill: string | undefined): Attributes {
  const attributes: Attributes = {
    "skillctx.tool.name": info.name,
    "skillctx.tool.call_id": callId,
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": info.name,
  };
  if (info.kind !== undefined) attributes["skillctx.tool.kind"] = info.kind;
  if (skill !== undefined) attributes["skillctx.skill"] = skill;
  return attributes;
}

// The step's figures on its span: what fired (parallel arrays, and one span event per activation) and
// what skills cost: the total, the catalog's share, and for each skill that adds more than its catalog
// entry (guidance, attachments, a loaded body) its total (parallel arrays) and one span event with the
// parts. Catalog entries alone are not listed per skill: with hundreds of skills they would repeat the
// same hundreds of figures on every span.
function recordStep(tracing: ContextTracing, span: Span, event: StepEvent, diagnostics: number): void {
  const attributes: Attributes = {
    "skillctx.activated.skills": event.activations.map((a) => a.skill),
    "skillctx.activated.triggers": event.activations.map((a) => a.trigger),
    "skillctx.attachments.count": event.attachments.length,
    "skillctx.attachments.bytes": event.attachments.reduce((sum, a) => sum + a.bytes, 0),
    "skillctx.diagnostics.count": diagnostics,
  };
  if (event.catalog !== undefined) {
    attributes["skillctx.catalog.level"] = event.catalog.level;
    attributes["skillctx.catalog.listed"] = event.catalog.listed;
    attributes["skillctx.catalog.tokens"] = event.catalog.tokens;
  }
  const adding = event.usage?.skills.filter((u) => u.total > u.catalog) ?? [];
  if (event.usage !== undefined) {
    attributes["skillctx.tokens.total"] = event.usage.total;
    attributes["skillctx.tokens.catalog"] = event.usage.skills.reduce((sum, u) => sum + u.catalog, 0);
    attributes["skillctx.tokens.skills"] = adding.map((u) => u.skill);
    attributes["skillctx.tokens.by_skill"] = adding.map((u) => u.total);
  }
  tracing.set(span, attributes);
  for (const a of event.activations) {
    const activation: Attributes = { "skillctx.skill": a.skill, "skillctx.trigger": a.trigger };
    if (a.match !== undefined) activation["skillctx.match"] = ellipsizeUtf16(a.match, 200);
    if (a.messageIndex !== undefined) activation["skillctx.message_index"] = a.messageIndex;
    tracing.event(span, "skillctx.skill.activated", activation);
  }
  for (const u of adding) {
    tracing.event(span, "skillctx.skill.tokens", {
      "skillctx.skill": u.skill,
      "skillctx.tokens.catalog": u.catalog,
      "skillctx.tokens.guidance": u.guidance,
      "skillctx.tokens.attachments": u.attachments,
      "skillctx.tokens.loaded": u.loaded,
      "skillctx.tokens.total": u.total,
    });
  }
}

// Arguments as the listener sees them: a copy, so a listener cannot change what the tool receives.
function copyArgs(args: unknown): unknown {
  try {
    return structuredClone(args);
  } catch {
    return `[arguments that cannot be copied: ${typeof args}]`;
  }
}
