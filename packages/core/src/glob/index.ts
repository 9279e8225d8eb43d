/** Globs: the one matcher for `paths:` rules, `.mdc` globs, `applyTo`, nested-guidance scopes and `allowed-tools`. */
export {
  compileGlob,
  compileGlobs,
  compileNamePattern,
  DEFAULT_GLOB_LIMITS,
  GLOB_TOO_COMPLEX,
  globTooComplex,
  limitGlobList,
} from "./compile-glob.js";
export { canonicalGlob, escapeGlob, folderGlob, normalizeGlob, trimGlob } from "./normalize-glob.js";
export { relocateGlob } from "./relocate-glob.js";
export { splitGlobList, splitGlobs } from "./split-glob-list.js";

export type { CompiledGlob, CompileGlobResult, GlobLimits, GlobOptions, GlobSet } from "./compile-glob.js";
export type { GlobProblem } from "./normalize-glob.js";
