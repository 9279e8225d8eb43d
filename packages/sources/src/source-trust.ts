/**
 * The one rule for whether a remote source may start a program: an `{ mcp }` source whose server config
 * has a `command` (stdio) starts that program to list its skills. A source the caller gave in code is the
 * caller's own (programmatic scope, trusted); a source a repository names in `skills.json` is repository
 * content, so it starts a program only when the project scope is trusted, the rule `.mcp.json` servers,
 * `!`cmd`` spans and scripts follow (core `isScopeTrusted`). Git and URL sources never start a program.
 */
import { isScopeTrusted } from "@skillctx/core";
import type { RemoteContext, RemoteSkillSource } from "./types.js";

/**
 * Why `source` may not start a program under `context`, or undefined when it may (or starts none).
 * Every resolver that would start a program asks here first.
 */
export function programRefusal(source: RemoteSkillSource, context: RemoteContext): string | undefined {
  if (!("mcp" in source) || !startsProgram(source.mcp)) return undefined;
  if (context.declaredBy !== "project") return undefined;
  if (isScopeTrusted("project", context.trust)) return undefined;
  return `its server config starts a program and comes from the repository (skills.json); trust the project scope to allow it`;
}

// A stdio server config names a program; an HTTP one (`url`) starts nothing.
function startsProgram(config: Record<string, unknown>): boolean {
  return typeof config === "object" && config !== null && "command" in config;
}
