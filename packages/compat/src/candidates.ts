import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { compareCodePoints } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { walk } from "@skillctx/core/internal";
import {
  CLAUDE_RULES_DIR,
  COPILOT_RULES_DIR,
  COPILOT_RULE_SUFFIX,
  CURSOR_RULES_DIR,
  CURSOR_RULE_SUFFIX,
  FILE_KINDS,
  MD_SUFFIX,
  WINDSURF_RULES_DIR,
  classifyNestedPath,
  isOrdinaryFolder,
} from "./formats.js";
import type { FileKindSpec, RuleKind } from "./formats.js";

/**
 * How a folder's guidance relates to cwd: `level` folders are cwd and its parents up to the root
 * (`up` is the path from the folder down to cwd); `nested` folders lie below cwd (`down` is their
 * path from cwd).
 */
export type Placement = { type: "level"; up: string } | { type: "nested"; down: string };

/** A guidance source found on disk, not yet read. */
export type Candidate =
  | {
      type: "file";
      spec: FileKindSpec;
      file: string;
      /** Root-relative folder the guidance belongs to (`""` for the root). */
      folder: string;
      place: Placement;
      /** Same-kind files in the folder that lose to `file` (`AGENT.md` beside `AGENTS.md`). */
      shadowed: string[];
      /** A file of the user's home folder (`~/.claude/CLAUDE.md`, `~/.codex/AGENTS.md`): user scope. */
      user?: true;
    }
  | { type: "clinerules-dir"; dir: string; files: string[]; folder: string; place: Placement }
  | { type: "rule"; kind: RuleKind; file: string; rule: string; folder: string; place: Placement; user?: true };

/** The folder name user guidance is listed under (`claude:~`, `agents:~`). */
export const USER_FOLDER = "~";

interface Entry {
  name: string;
  isFile: boolean;
  isDir: boolean;
}

/** How rule folders are walked. */
export interface ScanOptions {
  /** Real path of the project root: rule folders are not followed out of it. Unset: followed anywhere. */
  containRoot?: string | undefined;
  /** Where the walks report what they skipped. */
  diagnostics?: Diagnostic[] | undefined;
}

/** Deepest rule file below a rule folder (`.cursor/rules/a/b/.../x.mdc`), the rule folder being depth 0. */
const RULE_MAX_DEPTH = 8;

/** Every guidance source in one level folder: the single-file kinds, `.clinerules`, Copilot and Cursor rules. */
export async function scanLevel(
  dir: string,
  folder: string,
  place: Placement,
  options: ScanOptions = {},
): Promise<Candidate[]> {
  const entries = await listEntries(dir);
  const out: Candidate[] = [];
  const byLower = groupByLower(entries);

  for (const spec of FILE_KINDS) {
    if (spec.kind === "copilot" || spec.kind === "claude-dir") continue;
    if (spec.kind === "clinerules") {
      const entry = (byLower.get(".clinerules") ?? [])[0];
      if (entry?.isDir === true) {
        const clineDir = path.join(dir, entry.name);
        const files = await listRuleFiles(clineDir, ".md", options);
        if (files.length > 0)
          out.push({
            type: "clinerules-dir",
            dir: clineDir,
            files: files.map((f) => path.join(clineDir, f)),
            folder,
            place,
          });
        continue;
      }
    }
    const found = await skipEmptyOverride(dir, pickFile(spec, byLower));
    if (found !== undefined) {
      out.push({
        type: "file",
        spec,
        file: path.join(dir, found.winner),
        folder,
        place,
        shadowed: found.shadowed.map((n) => path.join(dir, n)),
      });
    }
  }

  // Claude Code: .claude/CLAUDE.md beside CLAUDE.md, and .claude/rules/**/*.md.
  const claude = await subfolder(dir, byLower, CLAUDE_RULES_DIR[0]);
  if (claude !== undefined) {
    const claudeEntries = groupByLower(await listEntries(claude));
    const spec = FILE_KINDS.find((k) => k.kind === "claude-dir");
    const memory = (claudeEntries.get("claude.md") ?? []).filter((e) => e.isFile);
    if (spec !== undefined && memory[0] !== undefined) {
      out.push({
        type: "file",
        spec,
        file: path.join(claude, memory[0].name),
        folder,
        place,
        shadowed: memory.slice(1).map((e) => path.join(claude, e.name)),
      });
    }
    const rules = await subfolder(claude, claudeEntries, CLAUDE_RULES_DIR[1]);
    if (rules !== undefined)
      out.push(...(await ruleCandidates(rules, "claude-rules", MD_SUFFIX, folder, place, options)));
  }

  // Windsurf: .windsurf/rules/**/*.md with their trigger frontmatter.
  const windsurf = await subfolder(dir, byLower, WINDSURF_RULES_DIR[0]);
  const windsurfRules =
    windsurf === undefined
      ? undefined
      : await subfolder(windsurf, groupByLower(await listEntries(windsurf)), WINDSURF_RULES_DIR[1]);
  if (windsurfRules !== undefined)
    out.push(...(await ruleCandidates(windsurfRules, "windsurf", MD_SUFFIX, folder, place, options)));

  const github = await subfolder(dir, byLower, COPILOT_RULES_DIR[0]);
  if (github !== undefined) {
    const githubEntries = groupByLower(await listEntries(github));
    const copilot = FILE_KINDS.find((k) => k.kind === "copilot");
    const instructions = (githubEntries.get("copilot-instructions.md") ?? []).filter((e) => e.isFile);
    if (copilot !== undefined && instructions[0] !== undefined) {
      out.push({
        type: "file",
        spec: copilot,
        file: path.join(github, instructions[0].name),
        folder,
        place,
        shadowed: instructions.slice(1).map((e) => path.join(github, e.name)),
      });
    }
    const rulesDir = await subfolder(github, githubEntries, COPILOT_RULES_DIR[1]);
    if (rulesDir !== undefined) {
      for (const rel of await listRuleFiles(rulesDir, COPILOT_RULE_SUFFIX, options)) {
        out.push({
          type: "rule",
          kind: "copilot",
          file: path.join(rulesDir, rel),
          rule: rel.slice(0, -COPILOT_RULE_SUFFIX.length),
          folder,
          place,
        });
      }
    }
  }

  const cursor = await subfolder(dir, byLower, CURSOR_RULES_DIR[0]);
  const cursorRules =
    cursor === undefined
      ? undefined
      : await subfolder(cursor, groupByLower(await listEntries(cursor)), CURSOR_RULES_DIR[1]);
  if (cursorRules !== undefined) {
    for (const rel of await listRuleFiles(cursorRules, CURSOR_RULE_SUFFIX, options)) {
      out.push({
        type: "rule",
        kind: "cursor",
        file: path.join(cursorRules, rel),
        rule: rel.slice(0, -CURSOR_RULE_SUFFIX.length),
        folder,
        place,
      });
    }
  }
  return out;
}

/**
 * The user's own guidance, read before the repository's (Claude Code and Codex both put it first):
 * `~/.claude/CLAUDE.md`, `~/.claude/rules/**\/*.md` and Codex's `~/.codex/AGENTS.override.md` or, when
 * that is missing or empty, `~/.codex/AGENTS.md`. Listed under the folder `~`; `up` places the rules'
 * globs relative to cwd as the repository root's would be.
 */
export async function scanUser(home: string, up: string, options: ScanOptions = {}): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const place: Placement = { type: "level", up };
  const claudeDir = path.join(home, ".claude");
  const claudeEntries = groupByLower(await listEntries(claudeDir));
  const claudeSpec = FILE_KINDS.find((k) => k.kind === "claude")!;
  const memory = (claudeEntries.get("claude.md") ?? []).filter((e) => e.isFile);
  if (memory[0] !== undefined) {
    out.push({
      type: "file",
      spec: claudeSpec,
      file: path.join(claudeDir, memory[0].name),
      folder: USER_FOLDER,
      place,
      shadowed: [],
      user: true,
    });
  }
  const rules = await subfolder(claudeDir, claudeEntries, CLAUDE_RULES_DIR[1]);
  if (rules !== undefined) {
    for (const rule of await ruleCandidates(rules, "claude-rules", MD_SUFFIX, USER_FOLDER, place, {
      ...options,
      containRoot: undefined,
    })) {
      out.push({ ...rule, user: true } as Candidate);
    }
  }
  const codexDir = path.join(home, ".codex");
  const agentsSpec = FILE_KINDS.find((k) => k.kind === "agents")!;
  const codex = await skipEmptyOverride(
    codexDir,
    pickFile({ ...agentsSpec, names: ["agents.override.md", "agents.md"] }, groupByLower(await listEntries(codexDir))),
  );
  if (codex !== undefined) {
    out.push({
      type: "file",
      spec: agentsSpec,
      file: path.join(codexDir, codex.winner),
      folder: USER_FOLDER,
      place,
      shadowed: [],
      user: true,
    });
  }
  return out;
}

async function ruleCandidates(
  dir: string,
  kind: RuleKind,
  suffix: string,
  folder: string,
  place: Placement,
  options: ScanOptions,
): Promise<Candidate[]> {
  const found = await listRuleFiles(dir, suffix, options);
  return found.map((rel) => ({
    type: "rule",
    kind,
    file: path.join(dir, rel),
    rule: rel.slice(0, -suffix.length),
    folder,
    place,
  }));
}

// Codex skips an empty AGENTS.override.md: AGENTS.md then stands for the folder.
async function skipEmptyOverride(
  dir: string,
  found: { winner: string; shadowed: string[] } | undefined,
): Promise<{ winner: string; shadowed: string[] } | undefined> {
  if (found === undefined || found.winner.toLowerCase() !== "agents.override.md") return found;
  const info = await stat(path.join(dir, found.winner)).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.size > 0) return found;
  const [next, ...rest] = found.shadowed;
  return next === undefined ? undefined : { winner: next, shadowed: rest };
}

/**
 * Turns the cwd-relative paths of a nested scan into candidates. `cwdFolder` is cwd's root-relative
 * folder, so names stay relative to the repository root.
 */
export function nestedCandidates(cwd: string, cwdFolder: string, paths: readonly string[]): Candidate[] {
  const files = new Map<string, Entry[]>();
  const out: Candidate[] = [];
  const rootFolder = (down: string) => (cwdFolder === "" ? down : `${cwdFolder}/${down}`);
  for (const relative of paths) {
    const found = classifyNestedPath(relative);
    if (found === undefined) continue;
    if (found.type === "cursor") {
      out.push({
        type: "rule",
        kind: "cursor",
        file: path.join(cwd, ...relative.split("/")),
        rule: found.rule,
        folder: rootFolder(found.folder),
        place: { type: "nested", down: found.folder },
      });
      continue;
    }
    const names = files.get(found.folder) ?? [];
    names.push({ name: found.fileName, isFile: true, isDir: false });
    files.set(found.folder, names);
  }
  for (const [down, names] of files) {
    const byLower = groupByLower(names);
    for (const spec of FILE_KINDS) {
      if (!spec.nested) continue;
      const found = pickFile(spec, byLower);
      if (found === undefined) continue;
      const dir = path.join(cwd, ...down.split("/"));
      out.push({
        type: "file",
        spec,
        file: path.join(dir, found.winner),
        folder: rootFolder(down),
        place: { type: "nested", down },
        shadowed: found.shadowed.map((n) => path.join(dir, n)),
      });
    }
  }
  return out;
}

// The preferred file of a kind: its names in order, each spelling in code point order; the rest lose.
function pickFile(
  spec: FileKindSpec,
  byLower: Map<string, Entry[]>,
): { winner: string; shadowed: string[] } | undefined {
  const all = spec.names.filter((n) => !n.includes("/")).flatMap((n) => (byLower.get(n) ?? []).filter((e) => e.isFile));
  const [winner, ...rest] = all;
  return winner === undefined ? undefined : { winner: winner.name, shadowed: rest.map((e) => e.name) };
}

function groupByLower(entries: readonly Entry[]): Map<string, Entry[]> {
  const map = new Map<string, Entry[]>();
  for (const entry of [...entries].sort((a, b) => compareCodePoints(a.name, b.name))) {
    const key = entry.name.toLowerCase();
    map.set(key, [...(map.get(key) ?? []), entry]);
  }
  return map;
}

async function subfolder(dir: string, byLower: Map<string, Entry[]>, lowerName: string): Promise<string | undefined> {
  const entry = (byLower.get(lowerName) ?? []).find((e) => e.isDir);
  return entry === undefined ? undefined : path.join(dir, entry.name);
}

async function listEntries(dir: string): Promise<Entry[]> {
  const dirents = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return Promise.all(
    dirents.map(async (d) => {
      if (!d.isSymbolicLink()) return { name: d.name, isFile: d.isFile(), isDir: d.isDirectory() };
      // A dangling link counts as a file, so that loading reports it rather than passing over it.
      const target = await stat(path.join(dir, d.name)).catch(() => undefined);
      return { name: d.name, isFile: target?.isFile() ?? true, isDir: target?.isDirectory() ?? false };
    }),
  );
}

// Files ending in `suffix` (case-insensitive) below `dir`, relative with `/`, skipping dot-folders:
// core's one walker, contained in the project unless trusted.
async function listRuleFiles(dir: string, suffix: string, options: ScanOptions): Promise<string[]> {
  const out: string[] = [];
  const walked = await walk(dir, {
    maxDepth: RULE_MAX_DEPTH,
    containRoot: options.containRoot,
    report: (_relative, name) => name.toLowerCase().endsWith(suffix),
    visit: (entry) => {
      if (entry.type === "dir") return isOrdinaryFolder(entry.name);
      const name = entry.name;
      // A dangling or special entry named like a rule is still listed, so that loading reports it.
      if (name.toLowerCase().endsWith(suffix) && name.length > suffix.length) out.push(entry.relative);
      return false;
    },
  });
  options.diagnostics?.push(...walked.diagnostics);
  return out.sort(compareCodePoints);
}
