/**
 * Issue 12: the per-step cost of the LangChain.js middleware (`skillctxMiddleware(ctx).wrapModelCall`,
 * what `createAgent` runs before each model call) against `buildContext` alone, at 200 and 2,000
 * messages of history. Each step appends an AIMessage with one tool call and its ToolMessage, as a turn of
 * an agent run does; the model handler answers at once, so the figure is the middleware's own work
 * (the new messages converted, the step, attached text placed, the step's tools). The LangChain messages
 * of the turns are made before the step (building them is the framework's cost, not the adapter's).
 * Target: within 1.5× of `buildContext`, and flat in history length.
 *
 * Run: pnpm vitest bench --run bench/adapters-langchain.bench.ts
 */
import { describe } from "vitest";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import type { BaseMessage } from "@langchain/core/messages";
import { skillctxMiddleware } from "skillctx/langchain";
import {
  benchContext,
  buildContextSession,
  conversation,
  FIRST_MESSAGE,
  interleavedBench,
  reportMedians,
  STEP_OPTIONS,
  TOOL_RESULT,
  warmUp,
} from "./adapter-steps.js";
import type { Session } from "./adapter-steps.js";

type WrapModelCall = NonNullable<ReturnType<typeof skillctxMiddleware>["wrapModelCall"]>;

/** The k-th tool turn (a Read call of `notes/k.md` and its result) as LangChain messages. */
const langChainTurn = (k: number): BaseMessage[] => [
  new AIMessage({
    content: "",
    tool_calls: [{ id: `c${k}`, name: "Read", args: { path: `notes/${k}.md` }, type: "tool_call" }],
  }),
  new ToolMessage({ content: TOOL_RESULT, tool_call_id: `c${k}`, name: "Read" }),
];

function middlewareSession(length: number): () => Promise<Session> {
  return async () => {
    const ctx = await benchContext();
    const middleware = skillctxMiddleware(ctx);
    const wrap = middleware.wrapModelCall as WrapModelCall;
    const messages = conversation<BaseMessage>(new HumanMessage(FIRST_MESSAGE), langChainTurn, length);
    const turns = Array.from({ length: STEP_OPTIONS.warmupIterations + STEP_OPTIONS.iterations + 1 }, (_, i) =>
      langChainTurn(length + i),
    );
    const answer = new AIMessage("ok");
    const systemMessage = new SystemMessage("");
    // The request createAgent builds for a model call (the parts the middleware reads); the model answers at once.
    const call = () =>
      wrap(
        {
          messages,
          tools: [...(middleware.tools ?? [])],
          systemMessage,
          systemPrompt: "",
          model: {} as never,
          state: { messages },
          runtime: {} as never,
        },
        async () => answer,
      );
    await call();
    let next = 0;
    return {
      step: () => {
        const turn = turns[next++];
        if (turn === undefined) throw new Error("the benchmark ran more steps than it prepared turns for");
        messages.push(...turn);
        return call();
      },
    };
  };
}

reportMedians("buildContext alone", ["LangChain middleware"]);

await warmUp([buildContextSession(200), middlewareSession(200)]);

for (const length of [200, 2_000]) {
  describe(`one step after appending a tool call and its result, ${length.toLocaleString("en")} messages of history`, () => {
    interleavedBench(length, [
      ["buildContext alone", buildContextSession(length)],
      ["LangChain middleware", middlewareSession(length)],
    ]);
  });
}
