/** `skillctx/openai`: the OpenAI Chat Completions and Responses API adapters. Imports only the `openai` package's types. */
export {
  fromOpenAIMessages,
  runOpenAIToolCalls,
  toOpenAIChatRequest,
  toOpenAIMessages,
  toOpenAITools,
} from "./adapters/openai.js";
export {
  fromOpenAIInput,
  runOpenAIResponsesCalls,
  toOpenAIInput,
  toOpenAIResponsesRequest,
  toOpenAIResponsesTools,
} from "./adapters/openai-responses.js";

export type {
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIChatRequestOptions,
  OpenAIChatTool,
  OpenAIToolCall,
  OpenAIToolMessage,
} from "./adapters/openai.js";
export type {
  OpenAICallOutput,
  OpenAIInputItem,
  OpenAIResponsesItem,
  OpenAIResponsesRequest,
  OpenAIResponsesTool,
} from "./adapters/openai-responses.js";
