import * as path from "node:path";
import micromatch from "micromatch";
import { compareCodePoints } from "./code-point-order.js";
import type { Skill } from "./skill.js";

/** A path skill fired by a path a tool call touched. */
export interface PathMatch {
  /** The skill's name. */
  skill: string;
  /** The path that matched, relative to `cwd`, with `/` separators. */
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
}

/**
 * Compiles the `path` triggers of `skills` (micromatch, dot files included, case-sensitive). Other
 * skills are ignored.
 *
 * A path is resolved against `cwd` (relative ones) and matched as a `/`-separated path relative to
 * `cwd`; paths outside `cwd`, and `cwd` itself, never match. No file-system access: symlinks are not
 * followed. A leading `./` or `/` of a glob anchors it at `cwd` (both are removed). A glob starting
 * with `!` excludes: a path fires a skill when it matches one of its other globs and none of its
 * `!` globs.
 *
 * @example
 * const matcher = createPathMatcher([{ name: "ts", trigger: { type: "path", globs: ["src/**\/*.ts"] } }]);
 * matcher.match(["/repo/src/a.ts"], "/repo") // [{ skill: "ts", path: "src/a.ts", glob: "src/**\/*.ts" }]
 */
export function createPathMatcher(skills: ReadonlyArray<Pick<Skill, "name" | "trigger">>): PathMatcher {
  const rules = skills
    .filter((skill) => skill.trigger?.type === "path" && Array.isArray(skill.trigger.globs))
    .map((skill) => compileRule(skill.name, (skill.trigger as { globs: unknown[] }).globs))
    .filter((rule) => rule.include.length > 0)
    .sort((a, b) => compareCodePoints(a.skill, b.skill));

  return {
    match(paths: readonly string[], cwd: string): PathMatch[] {
      if (rules.length === 0 || !Array.isArray(paths) || typeof cwd !== "string" || cwd === "") return [];
      const relative = paths.map((p) => relativeInside(p, cwd)).filter((p): p is string => p !== undefined);
      if (relative.length === 0) return [];
      const matches: PathMatch[] = [];
      for (const rule of rules) {
        const allowed = relative.filter((p) => !rule.exclude.some((test) => test(p)));
        found: for (const { glob, test } of rule.include) {
          for (const candidate of allowed) {
            if (test(candidate)) {
              matches.push({ skill: rule.skill, path: candidate, glob });
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

const OPTIONS: micromatch.Options = { dot: true };

interface Rule {
  skill: string;
  include: Array<{ glob: string; test: (p: string) => boolean }>;
  exclude: Array<(p: string) => boolean>;
}

function compileRule(skill: string, globs: unknown[]): Rule {
  const rule: Rule = { skill, include: [], exclude: [] };
  for (const glob of globs) {
    if (typeof glob !== "string") continue;
    const negated = glob.startsWith("!");
    const pattern = anchor(negated ? glob.slice(1) : glob);
    if (pattern === "") continue;
    const test = micromatch.matcher(pattern, OPTIONS);
    if (negated) rule.exclude.push(test);
    else rule.include.push({ glob, test });
  }
  return rule;
}

function anchor(glob: string): string {
  let result = glob.trim();
  while (result.startsWith("./")) result = result.slice(2);
  return result.replace(/^\/+/, "");
}

/** `file` relative to `cwd` with `/` separators, or undefined when it is `cwd` itself or outside it. */
function relativeInside(file: unknown, cwd: string): string | undefined {
  if (typeof file !== "string" || file === "" || file.includes("\0")) return undefined;
  const relative = path.relative(path.resolve(cwd), path.resolve(cwd, file));
  if (relative === "" || path.isAbsolute(relative)) return undefined;
  if (relative === ".." || relative.startsWith(`..${path.sep}`)) return undefined;
  return path.sep === "/" ? relative : relative.split(path.sep).join("/");
}
