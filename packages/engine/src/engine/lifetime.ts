import { SkillctxError } from "@skillctx/core";

/** The error of every call on a closed context. */
export function closedError(cause?: unknown): SkillctxError {
  return new SkillctxError(
    "CONTEXT_CLOSED",
    "this AgentContext was closed; create a new one",
    cause === undefined ? {} : { cause },
  );
}

export function isClosedError(error: unknown): boolean {
  return SkillctxError.isInstance(error) && error.code === "CONTEXT_CLOSED";
}

/**
 * A signal that aborts when the caller's or the context's (`lifetime`) does, and a `dispose` that
 * detaches it, so no listener outlives the call. Without a caller signal it is `lifetime` itself.
 */
export function linkSignals(
  signal: AbortSignal | undefined,
  lifetime: AbortSignal,
): { signal: AbortSignal; dispose: () => void } {
  if (signal === undefined) return { signal: lifetime, dispose: noop };
  if (signal.aborted) return { signal, dispose: noop };
  if (lifetime.aborted) return { signal: lifetime, dispose: noop };
  const controller = new AbortController();
  const fromCaller = () => controller.abort(signal.reason);
  const fromClose = () => controller.abort(lifetime.reason);
  signal.addEventListener("abort", fromCaller, { once: true });
  lifetime.addEventListener("abort", fromClose, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      signal.removeEventListener("abort", fromCaller);
      lifetime.removeEventListener("abort", fromClose);
    },
  };
}

function noop(): void {}
