// OpenTelemetry: a host registers a tracer provider (here the SDK's in-memory exporter) and gets a
// `skillctx.step` span per buildContext and a `skillctx.tool` span per callTool, with the documented
// attributes; a host tool's own spans nest under its tool span; with no provider nothing is traced.
import { SpanStatusCode, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { tracerProviderRegistered } from "../packages/engine/src/events/otel.js";
import { user, useEngineFixture } from "./helpers/engine-fixture.js";
import { useInMemoryTracing } from "./helpers/otel.js";

const fixture = useEngineFixture();
const tracing = useInMemoryTracing();

const skillMd = (name: string, description: string, body: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;
const FILES = {
  ".agents/skills/docker/SKILL.md": skillMd(
    "docker",
    "Builds and runs containers.",
    "Use multi-stage builds.",
    "triggers: [docker]\n",
  ),
  ".agents/skills/pdf/SKILL.md": skillMd("pdf", "Fills PDF forms.", "Read the fields first."),
};

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const eventsOf = (span: ReadableSpan, name: string) =>
  span.events.filter((e) => e.name === name).map((e) => e.attributes ?? {});

describe("OpenTelemetry spans of a session", () => {
  it("a step span per buildContext and a tool span per callTool, with skills, triggers, tokens and errors", async () => {
    tracing.register();
    const repo = await fixture.repo(FILES);
    const ctx = await fixture.context({
      cwd: repo.dir,
      tools: {
        host: [
          { name: "ok_tool", execute: () => "fine" },
          {
            name: "bad_tool",
            execute: () => {
              throw new Error("disk full");
            },
          },
        ],
      },
    });

    const history = [user("run it in docker")];
    await ctx.buildContext(history);
    await ctx.callTool("load_skill", { name: "pdf" });
    await ctx.callTool("ok_tool", {});
    const bad = await ctx.callTool("bad_tool", {});
    expect(bad.isError).toBe(true);
    await ctx.buildContext([...history, user("next")]);

    const spans = tracing.spans();
    expect(spans.map((s) => s.name)).toEqual([
      "skillctx.step",
      "skillctx.tool",
      "skillctx.tool",
      "skillctx.tool",
      "skillctx.step",
    ]);
    const [first, second] = named(spans, "skillctx.step");

    // Step 1: docker fired by a keyword.
    expect(first!.attributes).toMatchObject({
      "skillctx.step": 1,
      "skillctx.activated.skills": ["docker"],
      "skillctx.activated.triggers": ["keyword"],
      "skillctx.attachments.count": 1,
      "skillctx.catalog.level": "full",
      "skillctx.catalog.listed": 2,
      "skillctx.catalog.tokens": ctx.catalog!.tokens,
    });
    expect(eventsOf(first!, "skillctx.skill.activated")).toEqual([
      {
        "skillctx.skill": "docker",
        "skillctx.trigger": "keyword",
        "skillctx.match": "docker",
        "skillctx.message_index": 0,
      },
    ]);
    // Tokens: the total and the catalog's share; per skill (parallel arrays, one span event each) only the
    // skills that add more than their catalog entry — here docker, attached; pdf is only listed.
    expect(first!.attributes["skillctx.tokens.skills"]).toEqual(["docker"]);
    const bySkill = first!.attributes["skillctx.tokens.by_skill"] as number[];
    const catalogShare = first!.attributes["skillctx.tokens.catalog"] as number;
    const dockerTokens = eventsOf(first!, "skillctx.skill.tokens").find((e) => e["skillctx.skill"] === "docker")!;
    expect(eventsOf(first!, "skillctx.skill.tokens")).toHaveLength(1);
    // Total = every catalog entry + what docker adds beyond its own entry.
    expect(first!.attributes["skillctx.tokens.total"]).toBe(
      catalogShare + bySkill[0]! - (dockerTokens["skillctx.tokens.catalog"] as number),
    );
    expect(dockerTokens["skillctx.tokens.attachments"]).toBeGreaterThan(0);
    expect(dockerTokens["skillctx.tokens.catalog"]).toBeGreaterThan(0);
    expect(first!.status.code).toBe(SpanStatusCode.UNSET);

    // Step 2: the load of pdf is one of its activations, and its body is counted as loaded.
    expect(second!.attributes["skillctx.step"]).toBe(2);
    expect(second!.attributes["skillctx.activated.skills"]).toEqual(["pdf"]);
    expect(second!.attributes["skillctx.activated.triggers"]).toEqual(["load"]);
    const pdfTokens = eventsOf(second!, "skillctx.skill.tokens").find((e) => e["skillctx.skill"] === "pdf")!;
    expect(pdfTokens["skillctx.tokens.loaded"]).toBeGreaterThan(0);

    // Tool spans: kind, name, call id, skill; an error result sets the error status with its text.
    const [load, ok, failed] = named(spans, "skillctx.tool");
    expect(load!.attributes).toMatchObject({
      "skillctx.tool.name": "load_skill",
      "skillctx.tool.kind": "skill",
      "skillctx.tool.call_id": "call-1",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "load_skill",
    });
    expect(load!.attributes["skillctx.skill"]).toBeUndefined();
    expect(ok!.attributes).toMatchObject({
      "skillctx.tool.name": "ok_tool",
      "skillctx.tool.kind": "host",
      "skillctx.skill": "pdf",
      "skillctx.tool.result_bytes": 4,
    });
    expect(ok!.status.code).toBe(SpanStatusCode.UNSET);
    expect(failed!.attributes).toMatchObject({ "skillctx.tool.name": "bad_tool", "error.type": "tool_error" });
    expect(failed!.status).toEqual({ code: SpanStatusCode.ERROR, message: bad.content });
    expect(bad.content).toContain("disk full");
  });

  it("a host tool's own span is a child of its skillctx.tool span; the tool span is a child of the host's span", async () => {
    tracing.register();
    const tracer = trace.getTracer("host");
    const repo = await fixture.repo(FILES);
    const ctx = await fixture.context({
      cwd: repo.dir,
      tools: {
        host: [{ name: "traced", execute: () => tracer.startActiveSpan("host.work", (span) => (span.end(), "done")) }],
      },
    });
    await tracer.startActiveSpan("host.turn", async (turn) => {
      await ctx.callTool("traced", {});
      turn.end();
    });
    const spans = tracing.spans();
    const tool = named(spans, "skillctx.tool")[0]!;
    const work = named(spans, "host.work")[0]!;
    const turn = named(spans, "host.turn")[0]!;
    expect(work.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(tool.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
  });

  it("a step that fails (invalid messages) ends its span with the error status", async () => {
    tracing.register();
    const repo = await fixture.repo(FILES);
    const ctx = await fixture.context({ cwd: repo.dir });
    await expect(ctx.buildContext([{ role: "nobody", content: 1 } as never])).rejects.toThrow();
    const [step] = named(tracing.spans(), "skillctx.step");
    expect(step!.status.code).toBe(SpanStatusCode.ERROR);
    expect(step!.events.some((e) => e.name === "exception")).toBe(true);
  });

  it("a sampler that drops spans: no attributes are built, no usage is computed", async () => {
    tracing.register({ sampled: false });
    const repo = await fixture.repo(FILES);
    const ctx = await fixture.context({ cwd: repo.dir });
    const step = await ctx.buildContext([user("docker")]);
    expect(tracing.spans()).toEqual([]);
    expect(step.usage).toBeUndefined();
  });

  it("with no provider registered: nothing is traced, the API is not needed, usage is not computed", async () => {
    expect(tracerProviderRegistered()).toBe(false);
    const repo = await fixture.repo(FILES);
    const ctx = await fixture.context({ cwd: repo.dir });
    const step = await ctx.buildContext([user("docker")]);
    expect(step.usage).toBeUndefined();
    // Registering later (between steps) is seen by the next step.
    tracing.register();
    expect(tracerProviderRegistered()).toBe(true);
    await ctx.buildContext([user("docker"), user("again")]);
    expect(named(tracing.spans(), "skillctx.step").map((s) => s.attributes["skillctx.step"])).toEqual([2]);
  });
});
