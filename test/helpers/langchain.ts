/**
 * A scripted LangChain.js chat model that records what each call received, for the LangChain adapter's
 * tests, benchmark and adversarial scripts (which run in a temp folder and reach LangChain through here).
 */
import * as langchain from "langchain";
import * as messages from "@langchain/core/messages";
import * as testing from "@langchain/core/testing";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";

/** `langchain`, `@langchain/core/messages` and `@langchain/core/testing`, for scripts outside the repository. */
export const lc = { langchain, messages, testing };

/** One model call as a provider would serialise it: the messages, and the tools as OpenAI function definitions. */
export interface RecordedCall {
  messages: Array<{ type: string; content: unknown; tool_call_id?: string; status?: string; tool_calls?: unknown }>;
  tools: Array<{ name: string; description?: string; parameters?: unknown }>;
}

/**
 * `fakeModel()` of `@langchain/core/testing` (the package's own scripted chat model) that also records
 * the tools bound for each call (createAgent binds them before every call); `recorded()` pairs each
 * call's messages with its tools.
 */
export function recordingModel() {
  const model = testing.fakeModel();
  const bound: RecordedCall["tools"][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = (tools) => {
    bound.push(tools.map((tool) => convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]).function));
    return bindTools(tools);
  };
  const recorded = (): RecordedCall[] =>
    model.calls.map((call, i) => ({
      messages: call.messages.map((message) => {
        const loose = message as unknown as {
          type: string;
          content: unknown;
          tool_call_id?: string;
          status?: string;
          tool_calls?: Array<{ name: string; args: unknown }>;
        };
        const out: RecordedCall["messages"][number] = { type: loose.type, content: loose.content };
        if (loose.tool_call_id !== undefined) out.tool_call_id = loose.tool_call_id;
        if (loose.type === "tool" && loose.status !== undefined) out.status = loose.status;
        if (loose.tool_calls !== undefined && loose.tool_calls.length > 0)
          out.tool_calls = loose.tool_calls.map((c) => ({ name: c.name, args: c.args }));
        return out;
      }),
      tools: bound[i] ?? [],
    }));
  return { model, recorded };
}
