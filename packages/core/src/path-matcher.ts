import * as path from "node:path";
import { compareCodePoints } from "./code-point-order.js";
import type { Diagnostic } from "./diagnostics.js";
import { toPosixRelative } from "./fs/paths.js";
import { compileGlob, limitGlobList, trimGlob } from "./glob/index.js";
import type { CompiledGlob } from "./glob/index.js";
import type { Skill } from "./skill.js";

/** A path skill fired by a path a tool call touched. */
export interface PathMatch {
  /** The skill's name. */
  skill: string;
  /** The path that matched, relative to `cwd` (to the trigger's `base` when it has one), with `/` separators. */
  path: string;
  /** The glob that matched, as the skill declares it. */
  glob: string;
}

/** The path triggers of a skill set, compiled once. */
export interface PathMatcher {
  /**
   * The path skills that `paths` fire, at most one entry per skill, in code-point order of skill name.
   * Each entry names the skill's first declared glob that matches one of the paths, and the first of
   * `paths` (in the given order) that it matches. Never throws.
   */
  match(paths: readonly string[], cwd: string): PathMatch[];
  /**
   * `GLOB_TOO_COMPLEX` warnings for the globs refused when compiling (over a cap; the skill's other
   * globs still work), each with the skill's file as `path` and its name in the message.
   */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Compiles the `path` triggers of `skills`; other skills are ignored. Globs follow OpenHands and
 * Cursor (see `compileGlob` in `@skillctx/core/internal`): a glob without `/` matches at any depth
 * (`*.ts` matches `src/a.ts`), a leading `./` or `/` anchors it at `cwd`, a trailing `/` means
 * everything below, `**` spans folders, braces and classes work, dot files match, case-sensitive.
 * A glob starting with `!` excludes: a path fires a skill when it matches one of its other globs
 * and none of its `!` globs.
 *
 * A path is resolved against `cwd` (relative ones) and matched as a `/`-separated path relative to
 * `cwd`, or to the trigger's `base` when it names one; paths outside that folder, and the folder
 * itself, never match. No file-system access: symlinks are not
 * followed.
 *
 * Cost is bounded: each glob is matched by an automaton in at most (glob length + 1) × path length
 * steps; globs over the caps (limits.ts) are refused and reported in `diagnostics`.
 *
 * @example
 * const matcher = createPathMatcher([{ name: "ts", trigger: { type: "path", globs: ["src/**\/*.ts"] } }]);
 * matcher.match(["/repo/src/a.ts"], "/repo") // [{ skill: "ts", path: "src/a.ts", glob: "src/**\/*.ts" }]
 */
export function createPathMatcher(
  skills: ReadonlyArray<Pick<Skill, "name" | "trigger"> & { source?: { path?: string | undefined } }>,
): PathMatcher {
  const diagnostics: Diagnostic[] = [];
  const rules = skills
    .filter((skill) => skill.trigger?.type === "path" && Array.isArray(skill.trigger.globs))
    .map((skill) => {
      const trigger = skill.trigger as { globs: unknown[]; base?: unknown };
      return compileRule(
        skill,
        trigger.globs,
        diagnostics,
        typeof trigger.base === "string" ? trigger.base : undefined,
      );
    })
    .filter((rule) => rule.include.length > 0)
    .sort((a, b) => compareCodePoints(a.skill, b.skill));

  return {
    diagnostics,
    match(paths: readonly string[], cwd: string): PathMatch[] {
      if (rules.length === 0 || !Array.isArray(paths) || typeof cwd !== "string" || cwd === "") return [];
      const relative = paths.map((p) => relativeInside(p, cwd)).filter((p): p is string => p !== undefined);
      // A rule with its own base (a folder above cwd) sees the paths relative to that folder.
      const absolute = paths.filter((p): p is string => typeof p === "string").map((p) => path.resolve(cwd, p));
      if (relative.length === 0 && !rules.some((rule) => rule.base !== undefined)) return [];
      const matches: PathMatch[] = [];
      for (const rule of rules) {
        // A rule's own file does not fire it: a tool call that read `server/AGENTS.md` has its text already
        // (opencode attaches nothing then), so only the other paths of the call count.
        const own = rule.file;
        const paths = own === undefined || !absolute.includes(own) ? absolute : absolute.filter((p) => p !== own);
        const seen =
          rule.base === undefined && paths === absolute
            ? relative
            : paths.map((p) => relativeInside(p, rule.base ?? cwd)).filter((p): p is string => p !== undefined);
        const allowed = seen.filter((p) => !rule.exclude.some((glob) => glob.test(p)));
        found: for (const glob of rule.include) {
          for (const candidate of allowed) {
            if (glob.test(candidate)) {
              matches.push({ skill: rule.skill, path: candidate, glob: glob.glob });
              break found;
            }
          }
        }
      }
      return matches;
    },
  };
}

// ---------------------------------------------------------------------------------------------

interface Rule {
  skill: string;
  include: CompiledGlob[];
  exclude: CompiledGlob[];
  /** The folder globs are relative to, when not cwd. */
  base?: string | undefined;
  /** The rule's own file (absolute), which never fires it. */
  file?: string | undefined;
}

function compileRule(
  skill: Pick<Skill, "name"> & { source?: { path?: string | undefined } },
  globs: unknown[],
  diagnostics: Diagnostic[],
  base: string | undefined,
): Rule {
  const rule: Rule = { skill: skill.name, include: [], exclude: [], base };
  if (typeof skill.source?.path === "string" && path.isAbsolute(skill.source.path)) rule.file = skill.source.path;
  const options = { path: skill.source?.path, source: `skill ${JSON.stringify(skill.name)}` };
  const listed = limitGlobList(globs, options);
  diagnostics.push(...listed.diagnostics);
  for (const written of listed.globs) {
    const trimmed = trimGlob(written);
    const negated = trimmed.startsWith("!");
    const result = compileGlob(negated ? trimmed.slice(1) : trimmed, options);
    if (!result.ok) {
      diagnostics.push(result.diagnostic);
      continue;
    }
    // Keep the glob as the skill wrote it, for PathMatch.glob.
    const compiled: CompiledGlob = { glob: written, pattern: result.glob.pattern, test: result.glob.test };
    if (result.glob.pattern === "") continue;
    if (negated) rule.exclude.push(compiled);
    else rule.include.push(compiled);
  }
  return rule;
}

/** `file` relative to `cwd` with `/` separators, or undefined when it is `cwd` itself or outside it. */
function relativeInside(file: unknown, cwd: string): string | undefined {
  if (typeof file !== "string" || file === "" || file.includes("\0")) return undefined;
  const relative = toPosixRelative(path.resolve(cwd), path.resolve(cwd, file));
  return relative === "" ? undefined : relative;
}
