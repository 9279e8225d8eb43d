/**
 * Turns and lifetime of one context: exclusive operations (steps, reloads, state-changing tool calls)
 * run one after another in the order asked for, every operation gets a signal linked to the caller's
 * and to `close()`, and `close()` aborts what is in flight and waits for it to settle.
 */
import { within } from "@skillctx/process/internal";
import { CLOSE_WAIT_MS } from "../limits.js";
import { closedError, isClosedError, linkSignals } from "./lifetime.js";
import { StepQueue } from "./step-queue.js";

export class ContextTurns {
  private readonly queue = new StepQueue();
  /** Aborted by `close()`: every render, server start, script and step in flight is passed its signal. */
  private readonly lifetime = new AbortController();
  private closing: Promise<void> | undefined;
  /** Operations in flight (steps, tool calls): `close()` waits for them to settle after aborting them. */
  private readonly inflight = new Set<Promise<unknown>>();
  /** The signals of a call without a caller signal: the context's own (no listener to add or remove). */
  private readonly unlinked = { signal: this.lifetime.signal, dispose: () => {} };

  /** The context's own signal, aborted by `close()`. */
  get signal(): AbortSignal {
    return this.lifetime.signal;
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** Throws `CONTEXT_CLOSED` once `close()` was called. */
  assertOpen(): void {
    if (this.closing !== undefined) throw closedError();
  }

  /**
   * Runs `operation` in turn (after every exclusive operation asked for before it), with a signal that
   * aborts when the caller's does or the context closes. Dropped while waiting for its turn, it rejects
   * with the signal's reason (close() aborts with CONTEXT_CLOSED).
   */
  async exclusive<T>(signal: AbortSignal | undefined, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.queue.run(() => this.run(signal, operation), signal, this.lifetime.signal);
  }

  /**
   * Runs `operation` now, with a signal linked to the caller's and to close(); reports CONTEXT_CLOSED
   * when close() interrupted it.
   */
  async run<T>(signal: AbortSignal | undefined, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.assertOpen();
    const linked = signal === undefined ? this.unlinked : linkSignals(signal, this.lifetime.signal);
    try {
      linked.signal.throwIfAborted();
      return await this.tracked(operation(linked.signal));
    } catch (error) {
      throw this.closing !== undefined && !isClosedError(error) ? closedError(error) : error;
    } finally {
      linked.dispose();
    }
  }

  /**
   * Aborts everything in flight, waits for it to settle (at most {@link CLOSE_WAIT_MS}), then runs
   * `cleanup`. Idempotent: later calls return the same promise.
   */
  close(cleanup: () => Promise<void>): Promise<void> {
    this.closing ??= (async () => {
      this.lifetime.abort(closedError());
      // Aborted renders and scripts settle only once their process groups are gone, so waiting for them
      // means nothing is left running; a host tool that ignores its signal cannot hold close() for long.
      await within(Promise.allSettled([...this.inflight]), CLOSE_WAIT_MS);
      await cleanup();
    })();
    return this.closing;
  }

  // Remembers `work` until it settles, for close().
  private async tracked<T>(work: Promise<T>): Promise<T> {
    this.inflight.add(work);
    try {
      return await work;
    } finally {
      this.inflight.delete(work);
    }
  }
}
