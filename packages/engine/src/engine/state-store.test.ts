import { describe, expect, it } from "vitest";
import { ContextStateStore } from "./state-store.js";
import { parseContextState } from "./state.js";

const attachment = (skill: string, fingerprint: string) => ({
  skill,
  trigger: "keyword" as const,
  match: skill,
  fingerprint,
  text: `<${skill}>`,
});

describe("ContextStateStore", () => {
  it("round-trips a state and shares no object with it or with its snapshots", () => {
    const initial = parseContextState({
      version: 1,
      attachments: [attachment("docker", "f1")],
      scanned: ["f1"],
      rendered: { "load:x": "X" },
      activeSkill: "x",
    });
    const store = new ContextStateStore(initial);
    initial.attachments[0]!.text = "changed";
    const snapshot = store.snapshot();
    snapshot.attachments.length = 0;
    snapshot.rendered["load:x"] = "changed";
    const again = store.snapshot();
    expect(again).toEqual({
      version: 1,
      attachments: [attachment("docker", "f1")],
      scanned: ["f1"],
      rendered: { "load:x": "X" },
      activeSkill: "x",
      // A state saved without a session id gets one, made on first need and kept from then on.
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(store.snapshot().sessionId).toBe(again.sessionId);
  });

  it("keeps a session id it was given", () => {
    const store = new ContextStateStore(
      parseContextState({ version: 1, attachments: [], scanned: [], rendered: {}, sessionId: "s-1" }),
    );
    expect(store.sessionId).toBe("s-1");
    expect(store.snapshot().sessionId).toBe("s-1");
  });

  it("keepPresent drops the attachments and scan marks of vanished messages and re-arms their skills", () => {
    const store = new ContextStateStore();
    store.attach([attachment("docker", "f1"), attachment("deploy", "f2")]);
    store.markScanned(["f1", "f2", "f3"]);
    store.keepPresent(new Set(["f2", "f3"]));
    expect(store.isAttached("docker")).toBe(false);
    expect(store.isAttached("deploy")).toBe(true);
    expect(store.isScanned("f1")).toBe(false);
    expect(store.snapshot().scanned).toEqual(["f2", "f3"]);
  });

  it("freezes a rendering once and tracks the active skill", () => {
    const store = new ContextStateStore();
    store.freeze("load:a", "first");
    store.freeze("load:a", "second");
    expect(store.frozen("load:a")).toBe("first");
    expect(store.activate("a")).toBeUndefined();
    expect(store.activate("a")).toBeUndefined();
    expect(store.activate("b")).toBe("a");
    expect(store.deactivate()).toBe("b");
    expect(store.deactivate()).toBeUndefined();
    expect("activeSkill" in store.snapshot()).toBe(false);
  });
});
