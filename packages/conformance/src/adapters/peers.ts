/**
 * What the adapters of other loaders share. None of these loaders looks for a repository's files by
 * itself: a host passes it the skill folders. Each adapter passes the same two, at the case's working
 * folder, as a host embedding the loader in a coding agent would: `.agents/skills/`, the folder Agent
 * Skills names for every client (https://agentskills.io), and `.claude/skills/`, Claude Code's, where
 * the format began (https://code.claude.com/docs/en/skills). The rules they can then be checked on are
 * the skill rules of those folders and the skill-file rules; guidance, path rules, other agents' folders
 * and skillctx's diagnostics are not theirs ("not supported").
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson } from "@skillctx/core/internal";

/** The skill folders, relative to the working folder, each peer loader is given. */
export const PEER_SKILL_ROOTS: readonly string[] = [".agents/skills", ".claude/skills"];

/** The rules (docs/conventions.md) a skills-only loader given {@link PEER_SKILL_ROOTS} can be checked on. */
export const PEER_RULES: ReadonlySet<string> = new Set([
  "agents-skills-chain",
  "claude-skills",
  "skill-roots",
  "sf-frontmatter-repair",
  "sf-name-fallback",
  "sf-skill-file-case",
  "sf-catalog-one-line",
]);

/** `name version`, the version read from the installed package's package.json. */
export function labelOf(name: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.resolve(name)));
  while (dir !== path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const manifest = parseJson(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (manifest.name === name) return `${name} ${manifest.version ?? "?"}`;
    }
    dir = path.dirname(dir);
  }
  return name;
}
