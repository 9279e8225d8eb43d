export { AgentContext } from "./engine/agent-context.js";
export { ContextStateSchema } from "./engine/state.js";
export { defaultTemplates } from "./engine/templates.js";
export { MessageSchema, ContentPartSchema, ToolCallSchema, messageText } from "./messages.js";

export type { Activation, ContextStep, ToolDefinition } from "./engine/agent-context.js";
export type { AgentContextOptions, CollectInputsRequest, RenderSettings } from "./engine/options.js";
export type { ContextState, Attachment } from "./engine/state.js";
export type { Templates, InjectionInfo, GuidanceEntry } from "./engine/templates.js";
export type { TrustOptions } from "./engine/trust.js";
export type { InputValues } from "./engine/task-inputs.js";
export type { Message, ContentPart, TextPart, ToolCall } from "./messages.js";
