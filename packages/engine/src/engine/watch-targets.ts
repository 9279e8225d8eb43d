/**
 * What hot reload watches: the folders of the local skill sources and, below each, the paths that
 * count (skill folders, guidance, rule and command files); everything else is ignored.
 */
import { homedir } from "node:os";
import * as path from "node:path";
import { PROJECT_SKILL_DIRS, USER_SKILL_DIRS } from "@skillctx/core";
import { isHomeFolder, projectRoot } from "@skillctx/core/internal";
import type { AgentContextOptions } from "./options.js";

/**
 * What is watched at the project levels (cwd and each folder up to the project root), relative and
 * lower-case: the skill folders (core's PROJECT_SKILL_DIRS), then the guidance, rule and command
 * files compat reads (compat/src/formats.ts FILE_KINDS and rule folders, load-commands.ts folders),
 * and the project MCP configs. A test keeps this list in step with compat's.
 */
export const PROJECT_WATCH_TARGETS: readonly string[] = [
  ...PROJECT_SKILL_DIRS,
  "agents.override.md",
  "agents.md",
  "agent.md",
  "claude.md",
  ".claude/claude.md",
  "claude.local.md",
  "gemini.md",
  ".cursorrules",
  ".windsurfrules",
  ".clinerules",
  ".roorules",
  ".cline/rules",
  ".roo/rules",
  ".github/copilot-instructions.md",
  ".cursor/rules",
  ".github/instructions",
  ".claude/rules",
  ".windsurf/rules",
  ".claude/commands",
  ".cursor/commands",
  ".github/prompts",
  ".mcp.json",
  ".cursor/mcp.json",
].map((target) => target.toLowerCase());

/** The user's guidance and commands (read with user guidance on), relative to the home folder. */
export const USER_GUIDANCE_TARGETS: readonly string[] = [
  ".claude/claude.md",
  ".cline/rules",
  ".claude/rules",
  ".codex/agents.override.md",
  ".codex/agents.md",
  ".claude/commands",
  ".cursor/commands",
];

// A path below a project level counts when it is a target, inside one, or a folder on the way to one.
export function isTarget(relative: string, targets: readonly string[]): boolean {
  for (const target of targets) {
    if (relative === target || relative.startsWith(`${target}/`) || target.startsWith(`${relative}/`)) return true;
  }
  return false;
}

/** The folders to watch for `options`, with what below each counts (undefined: everything). */
export function watchRoots(options: AgentContextOptions): Map<string, readonly string[] | undefined> {
  const roots = new Map<string, readonly string[] | undefined>();
  const cwd = path.resolve(options.cwd);
  const sources = options.sources ?? {};
  const home = path.resolve(sources.homeDir ?? homedir());
  const root = projectRoot(cwd, { homeDir: home, rootMarkers: sources.projectRootMarkers });
  // cwd and every folder up to the project root: guidance is read at each level (AGENTS.md chain).
  // The home folder is never a project (core's isHomeFolder): watched below only for user files, when asked.
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    if (!isHomeFolder(dir, home)) roots.set(dir, PROJECT_WATCH_TARGETS);
    if (dir === root || path.dirname(dir) === dir || !dir.startsWith(root)) break;
  }
  const guidance = options.guidance;
  const userGuidance =
    guidance !== false && ((typeof guidance === "object" ? guidance.user : undefined) ?? sources.userSkills === true);
  const userTargets = [
    ...(sources.userSkills === true ? USER_SKILL_DIRS : []),
    ...(userGuidance ? USER_GUIDANCE_TARGETS : []),
  ];
  if (userTargets.length > 0 && !roots.has(home))
    roots.set(
      home,
      userTargets.map((t) => t.toLowerCase()),
    );
  if (Array.isArray(sources.userSkills)) {
    for (const folder of sources.userSkills) {
      const expanded = folder === "~" || folder.startsWith("~/") ? path.join(home, folder.slice(1)) : folder;
      roots.set(path.resolve(cwd, expanded), undefined);
    }
  }
  for (const input of options.skills ?? [])
    if (typeof input === "string") roots.set(path.resolve(cwd, input), undefined);
  return roots;
}
