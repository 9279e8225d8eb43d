export { AgentContext } from "./engine/agent-context.js";
export { defaultTemplates } from "./engine/templates.js";
export { messageText } from "./messages.js";
// The zod schemas (Message, ContextState, Skill, Diagnostic, MCP server) are at `skillctx/schemas`:
// importing them loads zod, which the engine otherwise loads only when it first validates something.
export { toolsets } from "./tools/presets/index.js";

export type { Activation, ContextStep, StepAttachment, ToolDefinition } from "./context-types.js";
export type {
  AgentContextOptions,
  CatalogOptions,
  CollectInputsRequest,
  ConversationOptions,
  RemoteSourceOptions,
  RenderSettings,
  SourceOptions,
  SubAgentOptions,
  TelemetryOptions,
  TextLimits,
  ToolOptions,
} from "./engine/options.js";
export type { Trust } from "@skillctx/core";
// The core types and the error class that skillctx's API uses, so users need one dependency.
export { SkillctxError } from "@skillctx/core";
export type {
  Skill,
  SkillInit,
  SkillSourceInput,
  Diagnostic,
  Severity,
  Trigger,
  TriggerInit,
  AlwaysTrigger,
  KeywordTrigger,
  TaskTrigger,
  TaskTriggerInit,
  PathTrigger,
  OnDemandTrigger,
  CommandTrigger,
  CommandTriggerInit,
  SkillSource,
  SkillScope,
  SkillFormat,
  SkillInput,
  SkillInputInit,
  SkillctxErrorCode,
  DiagnosticCode,
  SkillctxErrorOptions,
} from "@skillctx/core";
export type { ContextState, Attachment, Carrier, SentCatalog } from "./engine/state.js";
export type { Templates, InjectionInfo, GuidanceEntry, NestedCatalogInfo } from "./engine/templates.js";
export type { McpLimits, McpSettings } from "./engine/skill-servers.js";
export type { SkillSearchSettings, SuggestSettings } from "./tools/search-skills.js";
export type { GuidanceSettings } from "./engine/skill-set.js";
export type { EmulatedAgent } from "@skillctx/compat";
export type { InputValues } from "./engine/task-inputs.js";
export type { NestedSkillsSetting } from "./engine/nested-skills.js";
export type { Message, ContentPart, TextPart, OtherPart, ToolCall } from "./messages.js";
export type { ToolResult } from "./context-types.js";
export type { HostTool } from "./tools/host-tools.js";
export type { SkillToolSettings, ToolFilterMode } from "./tool-kit/tool-settings.js";
export type { Toolset, ToolsetName, SkillTool } from "./tools/toolset.js";
export type { CatalogIntroInfo } from "./engine/templates.js";

// --- events (events/) ---
export type {
  SkillctxEvent,
  SkillctxEventType,
  EventOf,
  EventListener,
  StepUsage,
  SkillUsage,
} from "./events/types.js";

// --- skills that carry code (code/) ---
export { defineSkill } from "./code/define-skill.js";
export type { SkillDefinition } from "./code/define-skill.js";
export type { SkillCodeToolsMode } from "./code/code-tools.js";
export type { StateDeltaEvent } from "./events/types.js";
export type {
  SkillToolSpec,
  SkillToolContext,
  SkillStateHandle,
  SkillStateSpec,
  SkillToolOutput,
  JsonSchema,
} from "./code/skill-code.js";
export type { RunSubAgent, SubAgentRequest, SubAgentResponse, SubAgentTool } from "./code/sub-agent-types.js";
export type { SubAgentSettings } from "./tools/sub-agent-support.js";

// --- skills from anywhere (sources/, skills-mcp/) ---
export type {
  SourceInput,
  RemoteSkillSource,
  McpSkillSource,
  GitSkillSource,
  UrlSkillSource,
  LockMode,
} from "@skillctx/sources";
export type { VerifySettings } from "@skillctx/sources";
