/**
 * `skillctx/schemas`: the zod schemas of skillctx's API (from `@skillctx/engine/schemas`). A separate entry
 * point because importing it loads zod; the engine loads zod only when it first validates something.
 */
export {
  ContentPartSchema,
  ContextStateSchema,
  DiagnosticSchema,
  McpServerConfigSchema,
  MessageSchema,
  SeveritySchema,
  SkillFormatSchema,
  SkillInputSchema,
  SkillSchema,
  SkillScopeSchema,
  SkillSourceSchema,
  ToolCallSchema,
  TriggerSchema,
} from "@skillctx/engine/schemas";
