/**
 * The prefix a provider caches, under the defaults, through a session that changes things: 30 requests
 * through the official OpenAI (Chat Completions, Responses) and Anthropic clients pointed at the local
 * fake provider, with hot reload on (a skill edited and one added mid-session), a nested skill folder
 * revealed by a tool call, a skill with `allowed-tools` loaded (and a call outside them refused), and a
 * resume from `ctx.state` in a new context after skills changed while no context ran. Every request
 * must begin with the previous one: `system` and `tools` the same bytes from the first request to the
 * last, the message list element for element (issue 37, "a prefix that survives"). The session and the
 * checks are test/helpers/prefix-live-session.ts; each client is its `send` (test/helpers/prefix-clients.ts).
 */
import { expect, it } from "vitest";
import { anthropicMessages, chatCompletions, openaiResponses } from "./helpers/prefix-clients.js";
import { usePrefixLiveSession } from "./helpers/prefix-live-session.js";
import { describeWithTool } from "./helpers/tools-present.js";

const session = usePrefixLiveSession();

describeWithTool("git")("the cached prefix survives hot reload, a nested reveal, allowed-tools and a resume", () => {
  it("Chat Completions", async () => {
    const { share } = await session.run("chat", chatCompletions);
    expect(share).toBeGreaterThan(0.9);
  });

  it("Responses API", async () => {
    const { share } = await session.run("responses", openaiResponses);
    expect(share).toBeGreaterThan(0.9);
  });

  it("Anthropic", async () => {
    const { share } = await session.run("anthropic", anthropicMessages);
    expect(share).toBeGreaterThan(0.9);
  });
});
