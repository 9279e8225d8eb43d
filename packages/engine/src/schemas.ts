/**
 * `skillctx/schemas`: the zod schemas of skillctx's API, from this package and the ones it builds on. A
 * separate entry point because importing it loads zod (about 60 ms in a cold process); the engine loads
 * zod only when it first validates something.
 */
import { messageSchemas } from "./messages.js";
import { stateSchemas } from "./engine/state.js";

const messages = messageSchemas();

export const MessageSchema = messages.MessageSchema;
export const ContentPartSchema = messages.ContentPartSchema;
export const ToolCallSchema = messages.ToolCallSchema;
export const ContextStateSchema = stateSchemas().ContextStateSchema;
export {
  SkillSchema,
  TriggerSchema,
  SkillInputSchema,
  SkillSourceSchema,
  SkillScopeSchema,
  SkillFormatSchema,
  DiagnosticSchema,
  SeveritySchema,
} from "@skillctx/core/schemas";
export { McpServerConfigSchema } from "@skillctx/mcp-bridge/schemas";
