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
import { fitUtf16 } from "@skillctx/core/internal";
import { MAX_SPAN_ATTRIBUTE_CHARS } from "../limits.js";

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
  return { code: 2, message: fitUtf16(message, MAX_SPAN_ATTRIBUTE_CHARS) };
}

/**
 * `attributes` with every text (and every text of an array) cut at {@link MAX_SPAN_ATTRIBUTE_CHARS}: the
 * one cap of what skillctx puts on a span. Tool names, skill names and matches come from the model or
 * from repositories; a 1 MiB tool name must not travel whole to every exporter.
 */
export function cappedAttributes(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === "string") out[key] = fitUtf16(value, MAX_SPAN_ATTRIBUTE_CHARS);
    else if (Array.isArray(value))
      out[key] = value.map((v: unknown) =>
        typeof v === "string" ? fitUtf16(v, MAX_SPAN_ATTRIBUTE_CHARS) : v,
      ) as Attributes[string];
    else out[key] = value;
  }
  return out;
}

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
    if (attributes !== undefined && span.isRecording()) this.set(span, attributes());
    return span;
  }

  /** Sets `attributes` on `span` through the one cap ({@link cappedAttributes}); every attribute skillctx sets comes here. */
  set(span: Span, attributes: Attributes): void {
    if (span.isRecording()) span.setAttributes(cappedAttributes(attributes));
  }

  /** Adds the event `name` with `attributes` through the same cap. */
  event(span: Span, name: string, attributes: Attributes): void {
    if (span.isRecording()) span.addEvent(name, cappedAttributes(attributes));
  }

  /** Marks `span` failed with `message` (and the exception, when there is one). */
  fail(span: Span, message: string, error?: unknown): void {
    if (!span.isRecording()) return;
    // `instanceof` runs a Proxy's getPrototypeOf trap: a thrown value that throws there is not recorded.
    if (isError(error)) span.recordException(error);
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

// Whether `value` is an Error, without letting a hostile Proxy's trap throw out of the check.
function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}
