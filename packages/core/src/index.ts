export { SkillctxError } from "./errors.js";
export { diagnostic, DiagnosticSchema, SeveritySchema } from "./diagnostics.js";
export { keepForModel, modelFamily } from "./model-gate.js";
export {
  SkillSchema,
  TriggerSchema,
  SkillInputSchema,
  SkillSourceSchema,
  SkillScopeSchema,
  SkillFormatSchema,
} from "./skill.js";

export type { SkillctxErrorOptions } from "./errors.js";
export type { Diagnostic, Severity } from "./diagnostics.js";
export type { ModelFamily } from "./model-gate.js";
export type {
  Skill,
  SkillInit,
  SkillInput,
  Trigger,
  TriggerType,
  SkillScope,
  SkillFormat,
  SkillSource,
} from "./skill.js";
