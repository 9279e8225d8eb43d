import { afterEach } from "vitest";
import { AgentContext } from "skillctx";
import type { AgentContextOptions, Message } from "skillctx";
import { tempRepo } from "./temp-repo.js";
import type { TempRepo } from "./temp-repo.js";

/** A user message. */
export const user = (content: string): Message => ({ role: "user", content });

/** A user's request, then the model reading one file (a `read_file` call) and the tool's `result`. */
export function readFileTurn(request: string, args: Record<string, unknown>, result = "x"): Message[] {
  return [
    user(request),
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read_file", args }] },
    { role: "tool", content: result, toolCallId: "c1" },
  ];
}

/**
 * Temp repositories and contexts for engine tests, closed and removed after each test.
 * `context` turns guidance off unless the options say otherwise.
 */
export function useEngineFixture(): {
  repo(files?: Record<string, string>): Promise<TempRepo>;
  context(options: AgentContextOptions): Promise<AgentContext>;
} {
  const repos: TempRepo[] = [];
  const contexts: AgentContext[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
    await Promise.all(repos.splice(0).map((r) => r.dispose()));
  });
  return {
    async repo(files = {}) {
      const made = await tempRepo(files);
      repos.push(made);
      return made;
    },
    async context(options) {
      const ctx = await AgentContext.create({ guidance: false, ...options });
      contexts.push(ctx);
      return ctx;
    },
  };
}
