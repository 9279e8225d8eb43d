import type { Skill } from "@skillctx/core";

/** Which scopes may run commands, scripts and MCP servers. Programmatic skills are always trusted. */
export interface TrustOptions {
  /** Skills found in the repository (untrusted input). @default false */
  project?: boolean;
  /** Skills from the user's home folders. @default true */
  user?: boolean;
}

/** Whether the caller trusts the scope `skill` came from. */
export function isTrusted(skill: Pick<Skill, "source">, trust: TrustOptions | undefined): boolean {
  switch (skill.source.scope) {
    case "programmatic":
      return true;
    case "user":
      return trust?.user ?? true;
    case "project":
      return trust?.project ?? false;
  }
}
