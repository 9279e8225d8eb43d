/**
 * OpenTelemetry spans of a context, through `@opentelemetry/api` only: skillctx never depends on an SDK.
 *
 * The API is imported on first need, not with `skillctx`: it costs 25–45 ms to load, and a host that
 * registered no tracer provider gets nothing from it. "Registered" is read where every copy of the API
 * 1.x reads it, the process-wide object under `Symbol.for("opentelemetry.js.api.1")` (its `trace` key is
 * set by `trace.setGlobalTracerProvider`, which every SDK's `register()` calls, and deleted by
 * `trace.disable()`). With no provider a step or tool call costs one property read here; with one, spans
 * are started through the API and attributes are built only when `span.isRecording()` (a sampler may drop it).
 *
 * Semantic names are listed in docs/events.md.
 */
import type { Attributes, Span, Tracer } from "@opentelemetry/api";
import { ellipsizeUtf16 } from "@skillctx/core/internal";

/** The API's module namespace, once loaded. */
type OtelApi = typeof import("@opentelemetry/api");

/** Name of the tracer (the instrumentation scope) skillctx starts its spans with. */
export const TRACER_NAME = "skillctx";

// The key under which @opentelemetry/api 1.x keeps its process-wide registrations (see global-utils in the API).
const GLOBAL_KEY = Symbol.for("opentelemetry.js.api.1");

let api: OtelApi | undefined;
let loading: Promise<OtelApi | undefined> | undefined;

/** Whether a host registered a global tracer provider (any copy of `@opentelemetry/api` 1.x). */
export function tracerProviderRegistered(): boolean {
  const registry = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[GLOBAL_KEY];
  return registry?.trace !== undefined;
}

/** The API, loaded on the first call that finds a provider registered; undefined when none is (or it cannot load). */
async function loadApi(): Promise<OtelApi | undefined> {
  if (api !== undefined) return api;
  loading ??= import("@opentelemetry/api").then(
    (loaded) => (api = loaded),
    () => undefined,
  );
  return loading;
}

/** One status update for a span that failed: the error text, cut for the backend. */
function errorStatus(message: string): { code: number; message: string } {
  // SpanStatusCode.ERROR is 2 in every API version; kept literal so this file needs the API's values only after load.
  return { code: 2, message: ellipsizeUtf16(message, MAX_STATUS_CHARS) };
}

/** Longest status message or attribute text skillctx sets (backends cap attributes anyway; this keeps exports small). */
const MAX_STATUS_CHARS = 1_000;

/**
 * The spans of one context. `tracer()` resolves the global tracer when a provider is registered; each
 * `start*` returns undefined when there is none, so callers skip all span work.
 */
export class ContextTracing {
  private tracerFor: { api: OtelApi; tracer: Tracer } | undefined;

  /** A started span, or undefined when no provider is registered. The caller ends it. */
  async start(name: string, attributes?: () => Attributes): Promise<Span | undefined> {
    if (!tracerProviderRegistered()) return undefined;
    const tracer = await this.tracer();
    if (tracer === undefined) return undefined;
    const span = tracer.startSpan(name);
    if (attributes !== undefined && span.isRecording()) span.setAttributes(attributes());
    return span;
  }

  /** Marks `span` failed with `message` (and the exception, when there is one). */
  fail(span: Span, message: string, error?: unknown): void {
    if (!span.isRecording()) return;
    if (error instanceof Error) span.recordException(error);
    span.setStatus(errorStatus(message));
  }

  /** Runs `fn` with `span` as the active span (child spans of host tools and sub-agents nest under it). */
  within<T>(span: Span, fn: () => Promise<T>): Promise<T> {
    if (api === undefined) return fn();
    return api.context.with(api.trace.setSpan(api.context.active(), span), fn);
  }

  private async tracer(): Promise<Tracer | undefined> {
    const loaded = api ?? (await loadApi());
    if (loaded === undefined) return undefined;
    // A tracer per context and API instance: the API's proxy tracer binds to the provider it first finds.
    if (this.tracerFor?.api !== loaded) this.tracerFor = { api: loaded, tracer: loaded.trace.getTracer(TRACER_NAME) };
    return this.tracerFor.tracer;
  }
}
