import type { Skill } from "@skillctx/core";

/** Who may invoke a skill. */
export interface WhoMayInvoke {
  /** The model may load it (`load_skill`); it is in the catalog unless it fires on its own. */
  model: boolean;
  /** What the user types to invoke it (`/name`, or `@name` for a Cursor manual rule), or null when the user may not. */
  user: string | null;
}

/** One skill as `skillctx list --json` prints it. */
export interface ListedSkill {
  name: string;
  scope: Skill["source"]["scope"];
  /** A remote skill's source name (an MCP server's label, a git or URL source's name); null for local skills. */
  origin: string | null;
  /** The skill's file (absolute), or null for a skill given in code. */
  path: string | null;
  trigger: Skill["trigger"]["type"];
  description: string | null;
  invocation: WhoMayInvoke;
  /** The `argument-hint` shown to the user, or null. */
  argumentHint: string | null;
  /** With `--tokens`: tokens of the body (o200k_base), what loading the skill costs; null when the body cannot be read. */
  tokens?: number | null;
}
