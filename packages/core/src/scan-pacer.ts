import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Paces a scan that uses synchronous file calls: after every `batch` calls it yields to the event
 * loop and checks the abort signal, so a large scan never blocks for long and can be cancelled.
 */
export class ScanPacer {
  private count = 0;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly batch = 256,
  ) {
    signal?.throwIfAborted();
  }

  /** Counts `calls` file-system calls and yields when a batch is full. */
  async step(calls = 1): Promise<void> {
    this.count += calls;
    if (this.count < this.batch) return;
    this.count = 0;
    await nextTurn();
    this.signal?.throwIfAborted();
  }

  /** Throws the signal's reason if it was aborted. */
  check(): void {
    this.signal?.throwIfAborted();
  }
}
