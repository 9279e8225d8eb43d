/** A single-file guidance kind; also the skill name at the repository root. */
export type FileKind =
  | "agents"
  | "claude"
  | "claude-dir"
  | "claude-local"
  | "gemini"
  | "cursorrules"
  | "windsurfrules"
  | "clinerules"
  | "roorules"
  | "copilot";

/** A rule-folder kind: one skill per rule file. */
export type RuleKind = "cursor" | "copilot" | "claude-rules" | "windsurf" | "cline";

export interface FileKindSpec {
  kind: FileKind;
  /**
   * Relative paths spelt exactly as their owner opens them, most preferred first (`AGENTS.md` beats
   * `AGENT.md`). Matched case-sensitively: `docs/api/agent.md` is an API page, not AGENTS.md (rule
   * `names-exact-case` in docs/conventions.md).
   */
  names: readonly string[];
  /** Also read below cwd, as path rules for that folder. */
  nested: boolean;
  /** `@path` lines pull other files in (CLAUDE.md, and GEMINI.md whose CLI does the same). */
  imports: boolean;
}

/** Codex's per-folder override of AGENTS.md, read only when Codex is the agent (agent-gate.ts). */
export const AGENTS_OVERRIDE_NAME = "AGENTS.override.md";

/** The single-file kinds, in the order their skills are listed at one folder level. */
export const FILE_KINDS: readonly FileKindSpec[] = [
  // Codex: AGENTS.override.md replaces AGENTS.md in its folder (for the Codex family only: agent-gate.ts).
  { kind: "agents", names: [AGENTS_OVERRIDE_NAME, "AGENTS.md", "AGENT.md"], nested: true, imports: false },
  { kind: "claude", names: ["CLAUDE.md"], nested: true, imports: true },
  // Claude Code reads .claude/CLAUDE.md beside CLAUDE.md, and CLAUDE.local.md (personal, not committed) after them.
  { kind: "claude-dir", names: [".claude/CLAUDE.md"], nested: false, imports: true },
  { kind: "claude-local", names: ["CLAUDE.local.md"], nested: true, imports: true },
  { kind: "gemini", names: ["GEMINI.md"], nested: true, imports: true },
  { kind: "cursorrules", names: [".cursorrules"], nested: false, imports: false },
  { kind: "windsurfrules", names: [".windsurfrules"], nested: false, imports: false },
  { kind: "clinerules", names: [".clinerules"], nested: false, imports: false },
  // Roo Code's single file, read only when `.roo/rules/` holds no rule (RooCodeInc/Roo-Code
  // src/core/prompts/sections/custom-instructions.ts loadRuleFiles; https://docs.roocode.com/features/custom-instructions).
  { kind: "roorules", names: [".roorules"], nested: false, imports: false },
  { kind: "copilot", names: [".github/copilot-instructions.md"], nested: false, imports: false },
];

/** Base names (exact case) that make a nested (below cwd) guidance file. */
export const NESTED_NAMES: ReadonlySet<string> = new Set(FILE_KINDS.filter((k) => k.nested).flatMap((k) => k.names));

/** Where rule files live under a folder, lower-case, and the suffix that marks one. */
export const CURSOR_RULES_DIR = [".cursor", "rules"] as const;
export const CURSOR_RULE_SUFFIX = ".mdc";
export const COPILOT_RULES_DIR = [".github", "instructions"] as const;
export const COPILOT_RULE_SUFFIX = ".instructions.md";
export const CLAUDE_RULES_DIR = [".claude", "rules"] as const;
export const WINDSURF_RULES_DIR = [".windsurf", "rules"] as const;
/** Claude Code and Windsurf rules are plain `.md` files. */
export const MD_SUFFIX = ".md";

/**
 * Folders inside a rule folder that its owner does not read as rules: Cline keeps workflows (run only
 * when the user types `/name.md`), hooks (scripts) and skills in `.clinerules/` beside its rules and
 * leaves them out of the rules it loads (cline/cline apps/vscode/src/core/context/instructions/
 * user-instructions/cline-rules.ts, `refreshClineRulesToggles`). Each owner's exclusions are part of
 * its rule (`owner-exclusions` in docs/conventions.md); lower-case first segments below the rule folder.
 */
export const OWNER_EXCLUDED_FOLDERS: Readonly<Record<string, readonly string[]>> = {
  clinerules: ["workflows", "hooks", "skills"],
  "cline-rules": ["workflows", "hooks", "skills"],
};

/** The kind a nested base name (exact case) belongs to. */
export function kindOfNestedName(name: string): FileKindSpec | undefined {
  return FILE_KINDS.find((spec) => spec.nested && spec.names.includes(name));
}

/**
 * Skill name for guidance of `base` (a kind, or `cursor:<rule>` / `copilot:<rule>`) that belongs to
 * `folder` (repository-relative, `""` for the root): `agents`, `agents:server`, `cursor:server:style`.
 */
export function guidanceName(kind: string, folder: string, rule?: string): string {
  const parts = [kind];
  if (folder !== "") parts.push(folder);
  if (rule !== undefined) parts.push(rule);
  return parts.join(":");
}

/**
 * Classifies a cwd-relative path (posix separators) found below cwd. Returns undefined for anything
 * that is not nested guidance: files in cwd itself, paths through dot-folders or `node_modules`
 * (except a `.cursor/rules` folder), and other names.
 */
export function classifyNestedPath(
  relativePath: string,
):
  | { type: "file"; spec: FileKindSpec; folder: string; fileName: string }
  | { type: "cursor"; folder: string; rule: string }
  | undefined {
  const segments = relativePath.split("/");
  const fileName = segments[segments.length - 1] ?? "";
  const lower = fileName.toLowerCase();

  const cursorAt = findCursorRules(segments);
  if (cursorAt !== undefined) {
    if (!lower.endsWith(CURSOR_RULE_SUFFIX) || cursorAt === 0) return undefined;
    const folder = segments.slice(0, cursorAt);
    const rule = segments.slice(cursorAt + 2);
    if (!folder.every(isOrdinaryFolder) || !rule.slice(0, -1).every(isOrdinaryFolder)) return undefined;
    const ruleName = rule.join("/").slice(0, -CURSOR_RULE_SUFFIX.length);
    if (ruleName === "" || ruleName.endsWith("/")) return undefined;
    return { type: "cursor", folder: folder.join("/"), rule: ruleName };
  }

  if (segments.length < 2) return undefined; // cwd's own files are read as the cwd level
  const spec = kindOfNestedName(fileName);
  if (spec === undefined) return undefined;
  const folder = segments.slice(0, -1);
  // Dot folders count (`.github/workflows/CLAUDE.md` guides the workflows, as Claude Code reads it when
  // it works there), except `.git`, `node_modules` and the agents' own folders, whose CLAUDE.md has
  // another meaning (`.claude/CLAUDE.md` is the level's memory file, read only at cwd and above).
  if (!folder.every(isNestedGuidanceFolder)) return undefined;
  return { type: "file", spec, folder: folder.join("/"), fileName };
}

/** A folder the nested search enters: not a dot-folder, not `node_modules`. */
export function isOrdinaryFolder(name: string): boolean {
  return name !== "" && !name.startsWith(".") && name !== "node_modules";
}

// Agents' own folders: a guidance file there is that agent's (`.claude/CLAUDE.md`), not a folder's guidance.
const AGENT_FOLDERS = new Set([
  ".claude",
  ".codex",
  ".gemini",
  ".cursor",
  ".windsurf",
  ".clinerules",
  ".cline",
  ".roo",
  ".opencode",
  ".openhands",
]);

/** A folder whose nested AGENTS.md / CLAUDE.md / GEMINI.md is a path rule: dot folders too, not `.git` or agents' own. */
export function isNestedGuidanceFolder(name: string): boolean {
  return name !== "" && name !== ".git" && name !== "node_modules" && !AGENT_FOLDERS.has(name.toLowerCase());
}

function findCursorRules(segments: readonly string[]): number | undefined {
  for (let i = 0; i + 2 < segments.length; i++) {
    if (segments[i]?.toLowerCase() === CURSOR_RULES_DIR[0] && segments[i + 1]?.toLowerCase() === CURSOR_RULES_DIR[1])
      return i;
  }
  return undefined;
}
