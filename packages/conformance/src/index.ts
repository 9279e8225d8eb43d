/**
 * `@skillctx/conformance`: which files an agent reads, and how. Layouts reproduced from public
 * repositories (`layouts/`), the expectations as data (`cases.json`, case-schema.ts), a runner, and the
 * adapter interface a loader implements to be checked (adapter.ts). README.md says how to add a rule or
 * a loader.
 */
export { caseSchemas, casesJsonSchema } from "./case-schema.js";
export { LAYOUTS_DIR, loadLayouts, prepareCopies, markerLine, occurrences } from "./layouts.js";
export { checkCase } from "./check-case.js";
export { cannotPlay, caseRuns, runAdapter, runConformance, tally } from "./runner.js";
export { skillctxLibraryAdapter, contextOptions } from "./adapters/skillctx-library.js";
export { skillctxCliAdapter, cliArgs } from "./adapters/skillctx-cli.js";
export type { Case, CaseOptions, Expect } from "./case-schema.js";
export type { Copies, Layout } from "./layouts.js";
export type { CaseResult, CaseStatus } from "./check-case.js";
export type { AdapterResults, RunConformanceOptions } from "./runner.js";
export type { AdapterResult, CaseRun, CatalogEntry, ConformanceAdapter, Observation } from "./adapter.js";
