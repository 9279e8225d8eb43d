/**
 * Names and defaults of the skill tools that the toolsets' definitions need before any call runs: a leaf,
 * so that the toolsets (exported by `skillctx`) reach none of the code behind the calls (`tool-runs.ts`).
 */

/** `execute_skill`, haiku.skills' name in every toolset. */
export const EXECUTE_SKILL_TOOL = "execute_skill";

/** Results `search_skills` returns when the model names no `limit`. */
export const DEFAULT_SEARCH_LIMIT = 10;
