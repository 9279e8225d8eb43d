/**
 * Waiting on work the host wrote (a skill's tool, a sub-agent runner) without letting it hold a call
 * past an abort: the wait ends with the signal's reason, and the work is left to settle on its own.
 */

/** `work`'s value, or a rejection with `signal.reason` as soon as `signal` aborts (already aborted: at once). */
export function untilAborted<T>(work: Promise<T> | T, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  if (!(work instanceof Promise)) return Promise.resolve(work);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
