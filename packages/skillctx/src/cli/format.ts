import type { Diagnostic } from "@skillctx/core";

/** One diagnostic on one line: `path:line: severity CODE message`. */
export function formatDiagnostic(d: Pick<Diagnostic, "code" | "severity" | "message" | "path" | "line">): string {
  const where = d.path === undefined ? "" : `${d.path}${d.line === undefined ? "" : `:${d.line}`}: `;
  return `${where}${d.severity} ${d.code} ${d.message}`;
}
