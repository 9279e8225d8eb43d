/**
 * One turn at a time, handed out in the order asked for: what a context uses so that concurrent
 * steps, state-changing tool calls and reloads behave as if made in sequence.
 *
 * @example
 * const turn = queue.acquire(signal);
 * if (turn !== undefined) await turn;
 * try { await work(); } finally { queue.release(); }
 */
export class StepQueue {
  #busy = false;
  readonly #waiting: Array<() => void> = [];

  /**
   * Takes the turn: undefined when it is free (taken at once, no promise), else a promise that
   * resolves when every turn asked for before has been released. When `signal` or `other` aborts while
   * it waits, the request is dropped (it never gets the turn) and the promise rejects with the reason.
   * Whoever got the turn must {@link release} it.
   */
  acquire(signal?: AbortSignal, other?: AbortSignal): Promise<void> | undefined {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (other?.aborted === true) return Promise.reject(other.reason);
    if (!this.#busy) {
      this.#busy = true;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const live = [signal, other].filter((s): s is AbortSignal => s !== undefined);
      const detach = () => {
        for (const signal of live) signal.removeEventListener("abort", onAbort);
      };
      const grant = () => {
        detach();
        resolve();
      };
      function onAbort(this: AbortSignal) {
        detach();
        const at = waiting.indexOf(grant);
        if (at !== -1) waiting.splice(at, 1);
        reject(this.reason);
      }
      const waiting = this.#waiting;
      for (const signal of live) signal.addEventListener("abort", onAbort);
      waiting.push(grant);
    });
  }

  /** Ends the current turn: the next request in line gets it, or the queue becomes free. */
  release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#busy = false;
    else next();
  }

  /**
   * Runs `work` in its turn and releases the turn however it ends; dropped while waiting (see
   * {@link acquire}), it rejects with the signal's reason and `work` never runs.
   */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal, other?: AbortSignal): Promise<T> {
    const turn = this.acquire(signal, other);
    if (turn !== undefined) await turn;
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}

/**
 * `step` made one call at a time, in the order called, whatever the outcome of each: an adapter's
 * steps share one history, so a step that starts while another is in flight waits for it.
 */
export function serialized<A, R>(step: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  const queue = new StepQueue();
  return (arg) => queue.run(() => step(arg));
}
