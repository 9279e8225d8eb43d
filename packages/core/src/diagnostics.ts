import { z } from "zod";

export const SeveritySchema = z.enum(["error", "warning"]);

/** A finding about one file: never thrown, always returned beside the good results. */
export const DiagnosticSchema = z.object({
  code: z.string(),
  severity: SeveritySchema,
  message: z.string(),
  path: z.string().optional(),
  line: z.number().int().positive().optional(),
});

export type Severity = z.infer<typeof SeveritySchema>;
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** Builds a diagnostic, leaving out `path` and `line` when they are unknown. */
export function diagnostic(
  code: string,
  severity: Severity,
  message: string,
  where: { path?: string | undefined; line?: number | undefined } = {},
): Diagnostic {
  const d: Diagnostic = { code, severity, message };
  if (where.path !== undefined) d.path = where.path;
  if (where.line !== undefined) d.line = where.line;
  return d;
}
