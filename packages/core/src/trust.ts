import type { SkillScope } from "./skill.js";

/**
 * Which scopes the caller trusts: the one trust vocabulary of every skillctx package.
 *
 * - A trusted scope's `` !`cmd` `` spans, scripts and MCP servers run; an untrusted one's are shown
 *   as "not run" markers or refused with a diagnostic.
 * - Reading outside the project (a guidance `@import` of `~/...`, a symlink that leaves the
 *   repository) needs `user: true` given explicitly: a repository must not pull `~/.ssh` into a prompt.
 *
 * Programmatic skills (given in code) are always trusted.
 */
export interface Trust {
  /** Skills and guidance found in the repository: untrusted input. @default false */
  project?: boolean | undefined;
  /** Skills from the user's home folders. @default true */
  user?: boolean | undefined;
  /**
   * Remote sources trusted by name (an MCP server's name, a git or URL source's `name`): their skills'
   * commands, scripts and MCP servers may run. Every other remote skill is untrusted. @default []
   */
  remote?: readonly string[] | undefined;
}

/**
 * Whether `scope` may run commands, scripts and MCP servers under `trust`. A remote scope is trusted
 * only when its `origin` is named in `trust.remote`.
 */
export function isScopeTrusted(scope: SkillScope, trust: Trust | undefined, origin?: string | undefined): boolean {
  switch (scope) {
    case "remote":
      return origin !== undefined && (trust?.remote?.includes(origin) ?? false);
    case "programmatic":
      return true;
    case "user":
      return trust?.user ?? true;
    case "project":
      return trust?.project ?? false;
  }
}

/** Whether repository content may reach files outside the project root (only with `user: true` given explicitly). */
export function mayReadOutsideProject(trust: Trust | undefined): boolean {
  return trust?.user === true;
}

/** Whether `skill` may run commands, scripts and MCP servers under `trust` (its scope, and its origin when remote). */
export function isSkillTrusted(
  skill: { source: { scope: SkillScope; origin?: string | undefined } },
  trust: Trust | undefined,
): boolean {
  return isScopeTrusted(skill.source.scope, trust, skill.source.origin);
}
