import type { z } from "./zod-lib.js";
import { lazySchemas } from "./zod-lib.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";

/** The Diagnostic schemas, built on the first call (exported by `@skillctx/core/schemas`). */
export const diagnosticSchemas = lazySchemas((z) => {
  /** `info` is a note that needs no action (`validateSkill` names the dialect of a non-spec field with one). */
  const SeveritySchema = z.enum(["error", "warning", "info"]);

  /** A finding about one file: never thrown, always returned beside the good results. */
  const DiagnosticSchema = z.object({
    code: z.string(),
    severity: SeveritySchema,
    message: z.string(),
    path: z.string().optional(),
    line: z.number().int().positive().optional(),
    /** For a finding about a field outside the Agent Skills specification: the agent that defines it. */
    dialect: z.enum(["claude-code", "codex", "openhands", "skillctx"]).optional(),
  });

  return { SeveritySchema, DiagnosticSchema };
});

type Schemas = ReturnType<typeof diagnosticSchemas>;

export type Severity = z.infer<Schemas["SeveritySchema"]>;
/**
 * A finding about one file: never thrown, always returned beside the good results. An interface over the
 * schema's type, so that it is named where used (docs/decisions.md, "Named types").
 */
export interface Diagnostic extends z.infer<Schemas["DiagnosticSchema"]> {}

/**
 * Where a finding goes: the one place a context (or a command) collects diagnostics, passed down
 * instead of out-parameter arrays. It never throws.
 */
export type DiagnosticSink = (diagnostic: Diagnostic) => void;

/** Builds a diagnostic, leaving out `path` and `line` when they are unknown. */
export function diagnostic(
  code: DiagnosticCode,
  severity: Severity,
  message: string,
  where: { path?: string | undefined; line?: number | undefined; dialect?: Diagnostic["dialect"] } = {},
): Diagnostic {
  const d: Diagnostic = { code, severity, message };
  if (where.path !== undefined) d.path = where.path;
  if (where.line !== undefined) d.line = where.line;
  if (where.dialect !== undefined) d.dialect = where.dialect;
  return d;
}
