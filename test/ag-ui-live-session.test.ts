/**
 * AG-UI through the live prefix session (issue 37, "through every adapter"). `skillctx/ag-ui` makes no
 * model request: it maps a context's events to AG-UI events for a user interface, while the model
 * request is built by the model adapter the agent uses (whose prefix the other live tests check). So
 * what it must keep stable is its own output, over the same 30 requests with hot reload, a nested
 * reveal, a skill with allowed-tools and a resume from `ctx.state`:
 *
 * - every event is valid for `@ag-ui/core` and travels as JSON unchanged;
 * - a new stream per context (as a host opens one after a resume), each with its `toolCallIdPrefix`,
 *   gives one START / ARGS / END per tool the model called, in the model's order, ids unique in the thread;
 * - none of it is the request's system or tool definitions (nothing of a cached prefix rides on AG-UI);
 * - the stream does not depend on the model client: the same session through Chat Completions and
 *   through Anthropic's Messages API gives the same events (apart from timings and the temp folder).
 */
import { EventSchemas } from "@ag-ui/core/schemas";
import { expect, it } from "vitest";
import { streamAgUiEvents } from "skillctx/ag-ui";
import type { AgUiEvent } from "skillctx/ag-ui";
import type { AgentContext } from "skillctx";
import { anthropicMessages, chatCompletions } from "./helpers/prefix-clients.js";
import type { PrefixClient } from "./helpers/prefix-clients.js";
import { scriptedCalls, usePrefixLiveSession } from "./helpers/prefix-live-session.js";
import { describeWithTool } from "./helpers/tools-present.js";

const sessions = [usePrefixLiveSession(), usePrefixLiveSession()];

type ToolEvent = AgUiEvent & { toolCallId: string; toolCallName?: string; delta?: string };

/** The session through `client` with an AG-UI stream on every context it opens; the events, in order. */
async function streamed(session: (typeof sessions)[number], label: string, client: PrefixClient) {
  const events: AgUiEvent[] = [];
  let contexts = 0;
  const watch = (ctx: AgentContext) =>
    void streamAgUiEvents(ctx, (event) => void events.push(event), {
      now: () => 1_700_000_000_000,
      toolCallIdPrefix: `run${++contexts}:`,
    });
  const { steps, requests, folders } = await session.run(label, client, watch);
  return { events, steps, requests, contexts, folders };
}

/**
 * The events as compared between clients: the session's temp folders as `<folder>`, no durations, and
 * without the watcher's own reports (`skills.stale`: how file events batch is the file system's timing).
 */
function comparable(run: { events: AgUiEvent[]; folders: string[] }): unknown {
  const kept = run.events.filter((e) => !(e.type === "CUSTOM" && e.name === "skillctx.skills.stale"));
  let text = JSON.stringify(kept, (key, value) => (key === "durationMs" ? 0 : value));
  for (const folder of run.folders) text = text.split(JSON.stringify(folder).slice(1, -1)).join("<folder>");
  return JSON.parse(text);
}

describeWithTool("git")("AG-UI events through the live prefix session", () => {
  it("valid, one triple per model tool call, no request bytes, the same whichever model client drives it", async () => {
    const chat = await streamed(sessions[0]!, "chat+ag-ui", chatCompletions);
    expect(chat.contexts).toBe(2); // the first context and the resumed one

    for (const event of chat.events) {
      const parsed = EventSchemas.safeParse(event);
      expect(parsed.success, `${event.type}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`).toBe(true);
      expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    }
    expect(chat.events.filter((e) => e.type === "STATE_SNAPSHOT")).toHaveLength(2);

    // Every tool the model called, in its order (the script's calls: each one runs).
    const called = scriptedCalls();
    expect(called).toEqual(expect.arrayContaining(["load_skill", "Write", "Read"]));
    const tools = chat.events.filter((e) => e.type.startsWith("TOOL_CALL_")) as ToolEvent[];
    const starts = tools.filter((e) => e.type === "TOOL_CALL_START");
    expect(starts.map((e) => e.toolCallName)).toEqual(called);
    const ids = starts.map((e) => e.toolCallId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids)
      expect(tools.filter((e) => e.toolCallId === id).map((e) => e.type)).toEqual([
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
      ]);

    // Nothing of the request's fixed part: neither the system text nor a tool definition.
    const text = JSON.stringify(chat.events);
    expect(text).not.toContain(JSON.stringify(chat.steps[0]!.system).slice(1, -1));
    for (const tool of chat.steps[0]!.tools) expect(text).not.toContain(JSON.stringify(tool.description).slice(1, -1));

    // The same stream through another model client.
    const anthropic = await streamed(sessions[1]!, "anthropic+ag-ui", anthropicMessages);
    expect(comparable(anthropic)).toEqual(comparable(chat));
  });
});
