/**
 * A scripted AI SDK model (MockLanguageModelV3 from `ai/test`): each call answers with the next turn —
 * text, or tool calls — and keeps the options it was called with. For sub-agent tests, where a parent
 * and a child model each follow a script.
 */
import { skillctxDependency } from "./tools-fixture.js";

const { MockLanguageModelV3 } = skillctxDependency<typeof import("ai/test")>("ai/test");

export type CallOptions = Parameters<InstanceType<typeof MockLanguageModelV3>["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<InstanceType<typeof MockLanguageModelV3>["doGenerate"]>>;

/** One answer of a scripted model: text, or tool calls (`[name, input]`). */
export type ScriptTurn = { text: string } | { calls: [string, unknown][] };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * A model answering with `script` in order (a function: computed per call). `hold` makes a call wait
 * until its abort signal fires (it then rejects with the signal's reason), for cancellation tests.
 */
export function scriptedModel(
  script: ScriptTurn[] | ((call: number) => ScriptTurn | "hold"),
  prefix = "call",
): { model: InstanceType<typeof MockLanguageModelV3>; calls: CallOptions[] } {
  const calls: CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options): Promise<GenerateResult> => {
      calls.push(options);
      const n = calls.length;
      const turn = typeof script === "function" ? script(n) : script[n - 1];
      if (turn === undefined) throw new Error(`the script has no answer for call ${n}`);
      if (turn === "hold") {
        return new Promise((_resolve, reject) => {
          const signal = options.abortSignal;
          if (signal === undefined) return reject(new Error("held call without an abort signal"));
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      }
      if ("text" in turn)
        return {
          content: [{ type: "text", text: turn.text }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      return {
        content: turn.calls.map(([toolName, input], i) => ({
          type: "tool-call" as const,
          toolCallId: `${prefix}${n}-${i}`,
          toolName,
          input: JSON.stringify(input),
        })),
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
  return { model, calls };
}

/** Names of the tools a call was offered. */
export const toolNames = (options: CallOptions): string[] => (options.tools ?? []).map((tool) => tool.name);

/** The system prompt of a call. */
export const systemOf = (options: CallOptions): string => {
  const first = options.prompt[0]!;
  return first.role === "system" ? first.content : "";
};

/** The text of the user messages of a call, in order. */
export const userTexts = (options: CallOptions): string[] =>
  options.prompt
    .filter((m) => m.role === "user")
    .map((m) => (m.content as { type: string; text?: string }[]).map((p) => p.text ?? "").join(""));

/** Every tool result a call was sent: name, output type and text. */
export function toolResults(options: CallOptions): { toolName: string; type: string; value: string }[] {
  return options.prompt
    .filter((m) => m.role === "tool")
    .flatMap((m) => m.content as { type: string; toolName: string; output: { type: string; value?: unknown } }[])
    .filter((p) => p.type === "tool-result")
    .map((p) => ({
      toolName: p.toolName,
      type: p.output.type,
      value: typeof p.output.value === "string" ? p.output.value : JSON.stringify(p.output.value),
    }));
}
