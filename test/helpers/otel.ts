import { AsyncLocalStorage } from "node:async_hooks";
import { context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import type { Context, ContextManager } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterEach } from "vitest";

// The context manager @opentelemetry/context-async-hooks ships, in a few lines (that package is not installed):
// the active context follows async calls through AsyncLocalStorage.
class AsyncLocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/**
 * Registers a global tracer provider that keeps finished spans in memory (and an AsyncLocalStorage
 * context manager), as a host's SDK set-up would; both are removed after each test.
 */
export function useInMemoryTracing(): { spans(): ReadableSpan[]; register(options?: { sampled?: boolean }): void } {
  let exporter: InMemorySpanExporter | undefined;
  afterEach(() => {
    trace.disable();
    context.disable();
    exporter?.reset();
    exporter = undefined;
  });
  return {
    register(options = {}) {
      exporter = new InMemorySpanExporter();
      const provider = new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(exporter)],
        ...(options.sampled === false && {
          sampler: { shouldSample: () => ({ decision: 0 }), toString: () => "never" },
        }),
      });
      context.setGlobalContextManager(new AsyncLocalContextManager());
      trace.setGlobalTracerProvider(provider);
    },
    spans: () => exporter?.getFinishedSpans() ?? [],
  };
}
