/** One row of the options table: an option of `AgentContextOptions` or a field of its settings object. */
export interface OptionRow {
  name: string;
  required: boolean;
  type: string;
  default: string;
  summary: string;
  deprecated: boolean;
}
export const README_FILES: string[];
export const START: string;
export const END: string;
export function readOptions(): OptionRow[];
export function optionsTable(rows?: OptionRow[]): string;
export function withOptionsTable(readme: string, table?: string): string;
