import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Paces a scan that uses synchronous file calls: after every `batch` calls it yields to the event
 * loop and checks the abort signal, so a large scan never blocks for long and can be cancelled.
 *
 * Hot loops call `if (pacer.tick()) await pacer.pause();` so that the common case costs no `await`.
 */
export class ScanPacer {
  private count = 0;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly batch = 256,
  ) {
    signal?.throwIfAborted();
  }

  /** Counts `calls` file-system calls; true when a batch is full and the caller should `pause()`. */
  tick(calls = 1): boolean {
    this.count += calls;
    return this.count >= this.batch;
  }

  /** Yields to the event loop, then throws the signal's reason if it was aborted. */
  async pause(): Promise<void> {
    this.count = 0;
    await nextTurn();
    this.signal?.throwIfAborted();
  }

  /** Throws the signal's reason if it was aborted. */
  check(): void {
    this.signal?.throwIfAborted();
  }
}
