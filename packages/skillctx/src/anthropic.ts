/** `skillctx/anthropic`: the Anthropic Messages API adapter. Imports only `@anthropic-ai/sdk`'s types. */
export {
  fromAnthropicMessages,
  runAnthropicToolUses,
  toAnthropicMessages,
  toAnthropicRequest,
  toAnthropicTools,
} from "./adapters/anthropic.js";

export type { AnthropicRequest, AnthropicRequestOptions } from "./adapters/anthropic.js";
