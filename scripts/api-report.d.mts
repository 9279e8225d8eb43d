/** One entry point of a workspace package's `exports` map. */
export interface ApiEntry {
  specifier: string;
  source: string;
  report: string;
}
/** The generated report of one entry point. */
export interface ApiReport {
  specifier: string;
  text: string;
  exports: Map<string, string>;
  values: number;
  types: number;
}
export function discoverEntries(root?: string): ApiEntry[];
export function buildReports(root?: string): Map<string, ApiReport>;
export function writeReports(root?: string): Map<string, ApiReport>;
export function checkReports(root?: string): { ok: boolean; changes: string[] };
