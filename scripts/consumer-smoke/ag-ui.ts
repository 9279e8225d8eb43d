// skillctx/ag-ui with @ag-ui/core installed: a context's events as AG-UI events, typed by @ag-ui/core.
import { AgentContext, defineSkill } from "skillctx";
import { streamAgUiEvents } from "skillctx/ag-ui";
import { EventType } from "@ag-ui/core";
import type { BaseEvent } from "@ag-ui/core";
import { check, fixture } from "./check.js";

const counter = defineSkill({
  name: "counter",
  description: "Counts.",
  instructions: "Call bump.",
  state: { schema: { safeParse: (value: unknown) => ({ success: true as const, data: value }) }, initial: { n: 0 } },
  tools: {
    bump: {
      description: "Adds one.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      execute: (_args: unknown, { state }) => {
        state.update((s) => ({ n: (s as { n: number }).n + 1 }));
        return "ok";
      },
    },
  },
});
const ctx = await AgentContext.create({ cwd: fixture, skills: [counter] });
const events: BaseEvent[] = [];
const stop = streamAgUiEvents(ctx, (event) => void events.push(event));
try {
  await ctx.callTool("load_skill", { name: "counter" });
  await ctx.callTool("bump", {});
  const types = events.map((e) => e.type);
  check(types[0] === EventType.STATE_SNAPSHOT, "the stream starts with a STATE_SNAPSHOT");
  check(types.includes(EventType.STATE_DELTA), "a state change arrives as a STATE_DELTA");
  check(
    types.includes(EventType.TOOL_CALL_START) && types.includes(EventType.TOOL_CALL_END),
    "tool calls arrive as TOOL_CALL_START and TOOL_CALL_END",
  );
} finally {
  stop();
  await ctx.close();
}
