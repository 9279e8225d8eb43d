import type { EventListener, EventSink, SkillctxEvent, SkillctxEventType } from "./types.js";

/**
 * The one event stream of a context. Listeners run synchronously, in the order registered; one that
 * throws is reported through `onListenerError` (a diagnostic of the next step, its text from core
 * `errorText`, which never throws) and never breaks the step or the other listeners, whatever it threw. With no listener, `wants` is false and emitters build nothing.
 */
export class EventBus implements EventSink {
  private readonly listeners = new Map<SkillctxEventType | "*", Set<(event: SkillctxEvent) => void>>();

  constructor(private readonly onListenerError: (error: unknown, event: SkillctxEvent) => void = () => {}) {}

  /** Registers `listener` for `type` (`"*"`: every event); returns the function that removes it. */
  on<T extends SkillctxEventType>(type: T | "*", listener: EventListener<T>): () => void {
    let set = this.listeners.get(type);
    if (set === undefined) this.listeners.set(type, (set = new Set()));
    const wrapped = listener as (event: SkillctxEvent) => void;
    set.add(wrapped);
    return () => void set.delete(wrapped);
  }

  wants(type: SkillctxEventType): boolean {
    return (this.listeners.get(type)?.size ?? 0) > 0 || (this.listeners.get("*")?.size ?? 0) > 0;
  }

  emit(event: SkillctxEvent): void {
    for (const key of [event.type, "*"] as const) {
      const set = this.listeners.get(key);
      if (set === undefined) continue;
      for (const listener of [...set]) {
        try {
          listener(event);
        } catch (error) {
          this.reportListenerError(error, event);
        }
      }
    }
  }

  // Isolation is total: whatever a listener threw (a null-prototype object, a Proxy whose traps throw, an
  // Error whose `message` getter throws) only reaches the reporter, and a reporter that fails is dropped
  // rather than let out of `emit`.
  private reportListenerError(error: unknown, event: SkillctxEvent): void {
    try {
      this.onListenerError(error, event);
    } catch {
      // Nothing to report to: the failure of the failure report is swallowed so the step goes on.
    }
  }
}
