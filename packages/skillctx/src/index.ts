export { AgentContext } from "./engine/agent-context.js";
export { ContextStateSchema } from "./engine/state.js";
export { defaultTemplates } from "./engine/templates.js";
export { MessageSchema, ContentPartSchema, ToolCallSchema, messageText } from "./messages.js";
export { toolsets } from "./tools/presets/index.js";
export { compileAllowedTools, toolNamePart } from "./tools/allowed-tools.js";
export { toAiSdkTools, skillctxPrepareStep, fromAiSdkMessages, toAiSdkMessages } from "./adapters/ai-sdk.js";
export {
  toOpenAITools,
  toOpenAIResponsesTools,
  toOpenAIChatRequest,
  fromOpenAIMessages,
  toOpenAIMessages,
  runOpenAIToolCalls,
} from "./adapters/openai.js";
export { toOpenAIAgentsTools, skillctxInputFilter, fromAgentItems } from "./adapters/openai-agents.js";
export { toAnthropicTools, runAnthropicToolUses } from "./adapters/anthropic.js";

export type { Activation, ContextStep, ToolDefinition } from "./context-types.js";
export type { AgentContextOptions, CollectInputsRequest, RenderSettings, TextLimits, TrustOptions } from "./engine/options.js";
export type { Trust } from "@skillctx/core";
export type { ContextState, Attachment } from "./engine/state.js";
export type { Templates, InjectionInfo, GuidanceEntry } from "./engine/templates.js";
export type { McpLimits, McpSettings } from "./engine/skill-servers.js";
export type { InputValues } from "./engine/task-inputs.js";
export type { Message, ContentPart, TextPart, ToolCall } from "./messages.js";
export type { ToolResult, ToolProvider } from "./context-types.js";
export type { HostTool } from "./tools/host-tools.js";
export type { SkillToolSettings, ToolFilterMode } from "./tools/skill-tools.js";
export type { Toolset, ToolsetName, SkillTool } from "./tools/toolset.js";
export type { AllowedTools } from "./tools/allowed-tools.js";
export type { CatalogIntroInfo } from "./engine/templates.js";
export type { AiSdkSkillTool } from "./adapters/ai-sdk.js";
export type { OpenAIChatTool, OpenAIResponsesTool, OpenAIChatMessage, OpenAIToolCall } from "./adapters/openai.js";
export type { OpenAIAgentsToolsOptions } from "./adapters/openai-agents.js";
export type { AnthropicTool, AnthropicToolUse, AnthropicToolResult } from "./adapters/anthropic.js";
