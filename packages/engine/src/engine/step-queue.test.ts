import { describe, expect, it } from "vitest";
import { serialized, StepQueue } from "./step-queue.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function inTurn<T>(queue: StepQueue, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const turn = queue.acquire(signal);
  if (turn !== undefined) await turn;
  try {
    return await work();
  } finally {
    queue.release();
  }
}

describe("StepQueue", () => {
  it("hands out one turn at a time, in the order asked for, whatever the outcome of each", async () => {
    const queue = new StepQueue();
    const log: string[] = [];
    const op =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      inTurn(queue, op("a")),
      inTurn(queue, op("b", true)),
      inTurn(queue, op("c")),
    ]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("gives a free turn at once, without a promise", () => {
    const queue = new StepQueue();
    expect(queue.acquire()).toBeUndefined();
    expect(queue.acquire()).toBeInstanceOf(Promise);
  });

  it("drops a request whose signal aborts while it waits, and keeps the order of the others", async () => {
    const queue = new StepQueue();
    const log: string[] = [];
    let release!: () => void;
    const first = inTurn(queue, () =>
      new Promise<void>((resolve) => (release = resolve)).then(() => void log.push("first")),
    );
    const controller = new AbortController();
    const dropped = inTurn(queue, async () => void log.push("dropped"), controller.signal);
    const third = inTurn(queue, async () => void log.push("third"));
    controller.abort(new Error("gone"));
    await expect(dropped).rejects.toThrow("gone");
    await tick();
    expect(log).toEqual([]);
    release();
    await Promise.all([first, third]);
    expect(log).toEqual(["first", "third"]);
    expect(queue.acquire()).toBeUndefined();
  });

  it("refuses at once when a signal is already aborted", async () => {
    const queue = new StepQueue();
    await expect(queue.acquire(AbortSignal.abort(new Error("late")))).rejects.toThrow("late");
    expect(queue.acquire()).toBeUndefined();
  });
});

describe("serialized", () => {
  it("makes one call at a time, in the order called; a failure does not hold the next call (adapters' steps)", async () => {
    const log: string[] = [];
    const step = serialized(async (name: string) => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      if (name === "b") throw new Error("b failed");
      return name.toUpperCase();
    });
    const results = await Promise.allSettled([step("a"), step("b"), step("c")]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
      "A",
      "b failed",
      "C",
    ]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("gives each wrapped function its own turn: two adapters do not wait for each other", async () => {
    const log: string[] = [];
    const slow = serialized(async () => {
      await tick();
      log.push("slow");
    });
    const fast = serialized(async () => {
      log.push("fast");
    });
    await Promise.all([slow(undefined), fast(undefined)]);
    expect(log).toEqual(["fast", "slow"]);
  });
});

describe("StepQueue.run", () => {
  it("releases the turn when the work throws, and never runs work dropped while waiting", async () => {
    const queue = new StepQueue();
    let ran = false;
    const first = queue.run(async () => {
      await tick();
      throw new Error("first");
    });
    const controller = new AbortController();
    const dropped = queue.run(async () => {
      ran = true;
    }, controller.signal);
    const droppedSettled = expect(dropped).rejects.toThrow("gone");
    controller.abort(new Error("gone"));
    await droppedSettled;
    await expect(first).rejects.toThrow("first");
    expect(ran).toBe(false);
    await expect(queue.run(async () => "free again")).resolves.toBe("free again");
  });
});
