import type Anthropic from "@anthropic-ai/sdk";

/**
 * Prompt-cache breakpoints on the messages of an Anthropic request (the adapter marks `system` and
 * `tools` itself). skillctx keeps every earlier byte of a conversation's request as it was, so the
 * request of the next step begins with this one: a breakpoint on the last message lets the next request
 * read everything up to it from the cache. A second one sits on the message the previous request ended
 * with (the one before the last assistant message), where the previous request wrote its cache entry:
 * the next lookup finds it even when more than the API's 20-block lookback was added since.
 */
export function withBreakpoints(messages: Anthropic.MessageParam[], control: Anthropic.CacheControlEphemeral): void {
  const last = messages.length - 1;
  if (last < 0) return;
  let previous = -1;
  for (let index = last; index >= 0; index--) {
    if (messages[index]!.role === "assistant") {
      previous = index - 1;
      break;
    }
  }
  mark(messages, last, control);
  if (previous >= 0 && previous < last) mark(messages, previous, control);
}

// Replaces messages[index] with a copy whose last block that may carry a breakpoint carries `control`.
function mark(messages: Anthropic.MessageParam[], index: number, control: Anthropic.CacheControlEphemeral): void {
  const message = messages[index]!;
  if (typeof message.content === "string") {
    if (message.content !== "")
      messages[index] = {
        ...message,
        content: [{ type: "text", text: message.content, cache_control: control }],
      } as Anthropic.MessageParam;
    return;
  }
  for (let k = message.content.length - 1; k >= 0; k--) {
    const block = message.content[k]!;
    if (!cacheable(block)) continue;
    const content = [...message.content];
    content[k] = { ...block, cache_control: control } as Anthropic.ContentBlockParam;
    messages[index] = { ...message, content } as Anthropic.MessageParam;
    return;
  }
}

// Thinking blocks cannot carry a breakpoint, and the API refuses an empty text block.
function cacheable(block: Anthropic.ContentBlockParam): boolean {
  if (block.type === "thinking" || block.type === "redacted_thinking") return false;
  return block.type !== "text" || block.text !== "";
}
