import type { Diagnostic, DiagnosticSink } from "@skillctx/core";
import type { EventSink } from "../events/types.js";

/**
 * The one sink of a context's diagnostics: what reloads, renders, servers, tools and listeners find
 * is held for the next step's `diagnostics` and, when someone listens, emitted as a `diagnostic` event.
 */
export class DiagnosticCollector {
  private held: Diagnostic[] = [];
  private events: EventSink | undefined;

  /** Pass this where a `report` callback is taken; it never throws. */
  readonly sink: DiagnosticSink = (d) => this.add(d, true);

  /** Connects the event bus (made after the collector, since the bus reports its listeners' errors here). */
  attach(events: EventSink): void {
    this.events = events;
  }

  /**
   * Holds `d` for the next step; `emit: false` for a diagnostic about a `diagnostic` listener itself
   * (emitting it again would loop).
   */
  add(d: Diagnostic, emit: boolean): void {
    this.held.push(d);
    if (emit && this.events?.wants("diagnostic") === true) this.events.emit({ type: "diagnostic", diagnostic: d });
  }

  /**
   * Emits `diagnostic` events for findings a stage returns straight into the step's `diagnostics`
   * (scan notes, nested discovery, re-attachment) without holding them.
   */
  announce(found: readonly Diagnostic[]): void {
    if (found.length === 0 || this.events?.wants("diagnostic") !== true) return;
    for (const d of found) this.events.emit({ type: "diagnostic", diagnostic: d });
  }

  /** The diagnostics held since the last drain, oldest first; empties the collector. */
  drain(): Diagnostic[] {
    const held = this.held;
    this.held = [];
    return held;
  }
}
