/**
 * `@skillctx/core/schemas`: the zod schemas of a Skill and a Diagnostic. A separate entry point because
 * importing it loads zod; the rest of the package loads zod only when it first validates something.
 */
import { diagnosticSchemas } from "./diagnostics.js";
import { skillSchemas } from "./skill.js";

const skill = skillSchemas();
const diagnostics = diagnosticSchemas();

export const SkillSchema = skill.SkillSchema;
export const TriggerSchema = skill.TriggerSchema;
export const SkillInputSchema = skill.SkillInputSchema;
export const SkillSourceSchema = skill.SkillSourceSchema;
export const SkillScopeSchema = skill.SkillScopeSchema;
export const SkillFormatSchema = skill.SkillFormatSchema;
export const DiagnosticSchema = diagnostics.DiagnosticSchema;
export const SeveritySchema = diagnostics.SeveritySchema;
