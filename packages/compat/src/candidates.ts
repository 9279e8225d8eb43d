import * as path from "node:path";
import {
  CLAUDE_RULES_DIR,
  COPILOT_RULES_DIR,
  COPILOT_RULE_SUFFIX,
  CURSOR_RULES_DIR,
  CURSOR_RULE_SUFFIX,
  AGENTS_OVERRIDE_NAME,
  FILE_KINDS,
  MD_SUFFIX,
  OWNER_EXCLUDED_FOLDERS,
  WINDSURF_RULES_DIR,
  classifyNestedPath,
} from "./formats.js";
import type { RuleKind } from "./formats.js";
import {
  gateOverride,
  groupByLower,
  groupByName,
  listEntries,
  pickFile,
  reportOtherCase,
  skipEmptyOverride,
  subfolder,
} from "./folder-entries.js";
import type { Entry } from "./folder-entries.js";
import type { Candidate, Placement, ScanOptions } from "./candidate.js";
export type { Candidate, Placement, ScanOptions } from "./candidate.js";
import { sortClineRules } from "./cline-rules.js";
import { listRuleFiles } from "./rule-files.js";
import { rooCandidates } from "./roo-rules.js";

/** The folder name user guidance is listed under (`claude:~`, `agents:~`). */
export const USER_FOLDER = "~";

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
  const byName = groupByName(entries);
  const roo = await rooCandidates(dir, entries, byLower, folder, place, options);
  out.push(...roo);

  for (const spec of FILE_KINDS) {
    if (spec.kind === "copilot" || spec.kind === "claude-dir") continue;
    if (spec.kind === "roorules" && roo.length > 0) continue;
    if (spec.kind === "clinerules") {
      const entry = (byLower.get(".clinerules") ?? [])[0];
      if (entry?.isDir === true) {
        out.push(...(await clineFolder(path.join(dir, entry.name), "clinerules", folder, place, options)));
        continue;
      }
    }
    reportOtherCase(spec, dir, byLower, options);
    const found = await skipEmptyOverride(dir, pickFile(gateOverride(spec, dir, byName, options), byName));
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
    const memory = (claudeEntries.get("claude.md") ?? []).filter((e) => e.isFile && e.name === "CLAUDE.md");
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

  // Cline: .cline/rules/ beside .clinerules (https://docs.cline.bot/features/cline-rules).
  const cline = await subfolder(dir, byLower, ".cline");
  const clineRules =
    cline === undefined ? undefined : await subfolder(cline, groupByLower(await listEntries(cline)), "rules");
  if (clineRules !== undefined) out.push(...(await clineFolder(clineRules, "cline-rules", folder, place, options)));

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
    const instructions = (githubEntries.get("copilot-instructions.md") ?? []).filter(
      (e) => e.isFile && e.name === "copilot-instructions.md",
    );
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
  const memory = (claudeEntries.get("claude.md") ?? []).filter((e) => e.isFile && e.name === "CLAUDE.md");
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
  // Cline: ~/.cline/rules (https://docs.cline.bot/features/cline-rules, global rules).
  const clineRules = path.join(home, ".cline", "rules");
  if ((await listEntries(path.join(home, ".cline"))).some((e) => e.name === "rules" && e.isDir))
    out.push(...(await clineFolder(clineRules, "cline-rules", USER_FOLDER, place, options, true)));
  const codexDir = path.join(home, ".codex");
  const agentsSpec = FILE_KINDS.find((k) => k.kind === "agents")!;
  const codexEntries = groupByName(await listEntries(codexDir));
  const codex = await skipEmptyOverride(
    codexDir,
    pickFile(
      gateOverride({ ...agentsSpec, names: [AGENTS_OVERRIDE_NAME, "AGENTS.md"] }, codexDir, codexEntries, options),
      codexEntries,
    ),
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

/**
 * A Cline rule folder: its always-on files as one `clinerules-dir` candidate, each conditional rule
 * (`paths:`) as a `cline` rule, disabled ones left out ({@link sortClineRules}).
 */
async function clineFolder(
  clineDir: string,
  kind: "clinerules" | "cline-rules",
  folder: string,
  place: Placement,
  options: ScanOptions,
  user?: true,
): Promise<Candidate[]> {
  const listOptions = user === true ? { ...options, containRoot: undefined } : options;
  const files = await listRuleFiles(clineDir, MD_SUFFIX, listOptions, OWNER_EXCLUDED_FOLDERS["clinerules"]);
  const sorted = await sortClineRules(clineDir, files, listOptions);
  const out: Candidate[] = [];
  if (sorted.always.length > 0) {
    out.push({
      type: "clinerules-dir",
      dir: clineDir,
      files: sorted.always.map((f) => path.join(clineDir, ...f.split("/"))),
      folder,
      place,
      kind,
      ...(user === true && { user }),
    });
  }
  for (const rel of sorted.conditional) {
    out.push({
      type: "rule",
      kind: "cline",
      file: path.join(clineDir, ...rel.split("/")),
      rule: rel.slice(0, -MD_SUFFIX.length),
      folder,
      place,
      ...(user === true && { user }),
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

/**
 * Turns the cwd-relative paths of a nested scan into candidates. `cwdFolder` is cwd's root-relative
 * folder, so names stay relative to the repository root.
 */
export function nestedCandidates(
  cwd: string,
  cwdFolder: string,
  paths: readonly string[],
  options: ScanOptions = {},
): Candidate[] {
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
    const byName = groupByName(names);
    const dir = path.join(cwd, ...down.split("/"));
    for (const spec of FILE_KINDS) {
      if (!spec.nested) continue;
      const found = pickFile(gateOverride(spec, dir, byName, options), byName);
      if (found === undefined) continue;
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
