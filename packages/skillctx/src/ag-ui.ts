/**
 * `skillctx/ag-ui`: a context's events as AG-UI protocol events (`STATE_SNAPSHOT`, `STATE_DELTA`,
 * `TOOL_CALL_START` / `TOOL_CALL_ARGS` / `TOOL_CALL_END`, `CUSTOM`). Imports only `@ag-ui/core`'s types.
 */
export { AgUiEventMapper, agUiStateSnapshot, streamAgUiEvents } from "./adapters/ag-ui.js";
export type { AgUiEvent, AgUiOptions, AgUiSource } from "./adapters/ag-ui.js";
