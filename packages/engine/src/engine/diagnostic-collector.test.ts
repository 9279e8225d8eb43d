import { diagnostic } from "@skillctx/core";
import { describe, expect, it } from "vitest";
import { EventBus } from "../events/event-bus.js";
import type { SkillctxEvent } from "../events/types.js";
import { DiagnosticCollector } from "./diagnostic-collector.js";

const d1 = diagnostic("SKILL_BODY_CUT", "warning", "one");
const d2 = diagnostic("SKILL_READ_FAILED", "error", "two", { path: "/x" });

describe("DiagnosticCollector", () => {
  it("holds what the sink gets, in order, until drained", () => {
    const c = new DiagnosticCollector();
    c.sink(d1);
    c.sink(d2);
    expect(c.drain()).toEqual([d1, d2]);
    expect(c.drain()).toEqual([]);
  });

  it("emits a diagnostic event only when someone listens", () => {
    const c = new DiagnosticCollector();
    const bus = new EventBus();
    c.attach(bus);
    c.sink(d1);
    const seen: SkillctxEvent[] = [];
    bus.on("diagnostic", (e) => void seen.push(e));
    c.sink(d2);
    expect(seen).toEqual([{ type: "diagnostic", diagnostic: d2 }]);
    expect(c.drain()).toEqual([d1, d2]);
  });

  it("holds without emitting when told so (a failure of a diagnostic listener)", () => {
    const c = new DiagnosticCollector();
    const bus = new EventBus((error) => c.add(diagnostic("EVENT_LISTENER_FAILED", "warning", String(error)), false));
    c.attach(bus);
    let calls = 0;
    bus.on("diagnostic", () => {
      calls++;
      throw new Error("boom");
    });
    c.sink(d1);
    expect(calls).toBe(1);
    expect(c.drain().map((d) => d.code)).toEqual(["SKILL_BODY_CUT", "EVENT_LISTENER_FAILED"]);
  });
});

describe("DiagnosticCollector.announce", () => {
  it("emits without holding, and builds nothing without a listener", () => {
    const c = new DiagnosticCollector();
    const bus = new EventBus();
    c.attach(bus);
    c.announce([d1]);
    const seen: unknown[] = [];
    bus.on("diagnostic", (e) => void seen.push(e.diagnostic));
    c.announce([d1, d2]);
    expect(seen).toEqual([d1, d2]);
    expect(c.drain()).toEqual([]);
  });
});
