/**
 * Globs of guidance rules: the one glob module lives in core (`@skillctx/core/internal`, `glob/`);
 * these names are kept for the compat files that import them.
 */
export {
  escapeGlob,
  folderGlob,
  normalizeGlob,
  relocateGlob,
  splitGlobList as readGlobList,
} from "@skillctx/core/internal";
export type { GlobProblem } from "@skillctx/core/internal";
