// Issue 25: an event listener that throws something exotic (a null-prototype object, a Proxy whose every
// trap throws, an Error whose `message` getter throws) never makes buildContext or callTool reject: the
// event stream's isolation is total (core errorText names it, and nothing else touches the thrown value).
// And what the model sends (a 1 MiB tool name) reaches a span cut at the one attribute cap.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentContext } from "../../packages/skillctx/src/index.js";
import { MAX_SPAN_ATTRIBUTE_CHARS } from "../../packages/engine/src/limits.js";
import { useInMemoryTracing } from "../helpers/otel.js";

const tracing = useInMemoryTracing();

const inline = { kind: "inline", format: "inline", scope: "programmatic" } as const;
const skills = [
  {
    name: "docker",
    description: "Containers.",
    content: "Use multi-stage builds.",
    source: inline,
    trigger: { type: "keyword", keywords: ["docker"] },
  },
  {
    name: "pdf",
    description: "PDF forms.",
    content: "Read the fields first.",
    source: inline,
    trigger: { type: "on-demand" },
  },
] as never;
const tools = [{ name: "echo", execute: (args: unknown) => JSON.stringify(args) }] as never;

const trapAll = new Proxy(
  {},
  {
    get() {
      throw new Error("trap");
    },
    getPrototypeOf() {
      throw new Error("trap");
    },
    has() {
      throw new Error("trap");
    },
    ownKeys() {
      throw new Error("trap");
    },
    getOwnPropertyDescriptor() {
      throw new Error("trap");
    },
  },
);
const badMessage = new Error("x");
Object.defineProperty(badMessage, "message", {
  get() {
    throw new Error("getter");
  },
});
const throwables: [string, unknown][] = [
  ["a null-prototype object", Object.create(null)],
  ["a Proxy whose traps throw", trapAll],
  ["an Error whose message getter throws", badMessage],
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("event listeners that throw exotic values", () => {
  for (const [what, thrown] of throwables) {
    it(`${what}: buildContext and callTool resolve, and the failure is a diagnostic (spans recorded)`, async () => {
      tracing.register();
      const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-exotic-"));
      dirs.push(dir);
      const ctx = await AgentContext.create({
        cwd: dir,
        guidance: false,
        skills,
        tools: {
          host: tools,
        },
        telemetry: {
          onEvent: () => {
            throw thrown;
          },
        },
      });
      ctx.on("step", () => {
        throw thrown;
      });
      ctx.on("tool.finished", () => {
        throw thrown;
      });
      ctx.on("diagnostic", () => {
        throw thrown;
      });
      const first = await ctx.buildContext([{ role: "user", content: "docker please" }]);
      expect(first.activated.map((a) => a.skill)).toContain("docker");
      const load = await ctx.callTool("load_skill", { name: "pdf" });
      expect(load.isError).not.toBe(true);
      const echo = await ctx.callTool("echo", { a: 1 });
      expect(echo.content).toBe('{"a":1}');
      const second = await ctx.buildContext([
        { role: "user", content: "docker please" },
        { role: "user", content: "next" },
      ]);
      expect(second.diagnostics.map((d) => d.code)).toContain("EVENT_LISTENER_FAILED");
      await ctx.close();
    });
  }
});

describe("span attributes from the model", () => {
  it("a 1 MiB tool name is cut at the attribute cap in skillctx.tool.name and gen_ai.tool.name", async () => {
    tracing.register();
    const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-span-"));
    dirs.push(dir);
    const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills, tools: { host: tools } });
    await ctx.buildContext([{ role: "user", content: "hello" }]);
    const huge = "t".repeat(1024 * 1024);
    const result = await ctx.callTool(huge, {});
    expect(result.isError).toBe(true);
    await ctx.close();
    const span = tracing.spans().find((s) => s.name === "skillctx.tool")!;
    for (const key of ["skillctx.tool.name", "gen_ai.tool.name"]) {
      const value = span.attributes[key] as string;
      expect(value.length).toBeLessThan(4_096);
      expect(value.length).toBeLessThanOrEqual(MAX_SPAN_ATTRIBUTE_CHARS);
      expect(value.startsWith("ttt")).toBe(true);
    }
    expect((span.status.message ?? "").length).toBeLessThanOrEqual(MAX_SPAN_ATTRIBUTE_CHARS);
  });
});
