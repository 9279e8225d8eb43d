/**
 * Typed tools from a skill's Python scripts: `scripts/*.py` with a `main()` whose parameters are
 * annotated become tools whose JSON Schema comes from the signature and docstring, read with the
 * interpreter's own `ast` module (never by running the script).
 * SCAFFOLD (owner: the typed-script-tools helper): returns no tools.
 */
import type { Diagnostic, Skill, Trust } from "@skillctx/core";
import type { EventSink } from "../events/types.js";
import type { CodeTool } from "./skill-code.js";

/** What deriving and running script tools needs from the context. */
export interface ScriptToolsContext {
  trust: Trust | undefined;
  /** Per call. @default 30000 */
  timeoutMs?: number | undefined;
  /** Bytes of stdout kept per call. */
  maxOutputBytes?: number | undefined;
  events: EventSink;
  signal?: AbortSignal | undefined;
}

/** The typed tools of `skill`'s scripts (memoised per skill folder and file stats), with diagnostics for scripts that have none. */
export async function scriptToolsOf(_skill: Skill, _context: ScriptToolsContext): Promise<{ tools: CodeTool[]; diagnostics: Diagnostic[] }> {
  return { tools: [], diagnostics: [] };
}
