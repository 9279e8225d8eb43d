/**
 * For the OpenAI and Anthropic adapter tests: a fake provider closed after each test, a step made by hand
 * (as the engine makes one), and reading Anthropic request bodies as the prefix tests compare them (where
 * the `cache_control` breakpoints are, and the messages without them).
 */
import { afterEach } from "vitest";
import type { ContextStep, Message } from "skillctx";
import { startFakeProvider } from "./fake-provider.js";
import type { FakeProvider, ScriptEntry } from "./fake-provider.js";

/** For a test file: `start()` gives a fake provider that is closed after the test. */
export function useFakeProvider(): { start(entries?: ScriptEntry[]): Promise<FakeProvider> } {
  const started: FakeProvider[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((provider) => provider.close()));
  });
  return {
    async start(entries = []) {
      const provider = await startFakeProvider(entries);
      started.push(provider);
      return provider;
    },
  };
}

/**
 * A step as the engine makes one from `messages`: each attachment appended to a copy of its message as a
 * text part (the copy keeps the message's parts), and listed in `attachments`.
 */
export function stepWith(
  messages: readonly Message[],
  attachments: Array<{ messageIndex: number; text: string }> = [],
  system = "sys",
): ContextStep {
  const out = messages.slice();
  for (const { messageIndex, text } of attachments) {
    const message = out[messageIndex]!;
    const parts =
      typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : [...message.content];
    out[messageIndex] = { ...message, content: [...parts, { type: "text", text }] };
  }
  return { system, messages: out, attachments, tools: [], activated: [], diagnostics: [] };
}

type Content = string | Array<Record<string, unknown>>;
type MessageJson = { role: string; content: Content };

/** The message and block indexes of every `cache_control` breakpoint in `messages`. */
export function breakpoints(messages: readonly MessageJson[]): Array<{ message: number; block: number }> {
  const found: Array<{ message: number; block: number }> = [];
  messages.forEach((message, index) => {
    if (typeof message.content === "string") return;
    message.content.forEach((block, k) => {
      if (block.cache_control !== undefined && block.cache_control !== null) found.push({ message: index, block: k });
    });
  });
  return found;
}

/**
 * The messages without their `cache_control` keys, a string content written as the one text block the
 * API reads it as (the adapter writes a marked string message as that block).
 */
export function withoutCacheControl(messages: readonly MessageJson[]): MessageJson[] {
  return messages.map((message) => ({
    ...message,
    content:
      typeof message.content === "string"
        ? message.content === ""
          ? ""
          : [{ type: "text", text: message.content }]
        : message.content.map(({ cache_control: _, ...block }) => block),
  }));
}
