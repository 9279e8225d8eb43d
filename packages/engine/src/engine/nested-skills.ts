/**
 * Nested skills in monorepos, as Claude Code finds them: the skill folders of a sub-folder of the
 * project (`packages/web/.claude/skills`, `packages/web/.agents/skills`) become available when a tool
 * call touches a file below that sub-folder. `system` never changes: the new skills' catalog entries
 * are attached to the tool result that revealed them, and they join the skill set from then on
 * (`load_skill`, `/name`, their triggers). The revealed folders are kept in state, so a resumed
 * context has them too.
 */
import { statSync } from "node:fs";
import path from "node:path";
import {
  compareCodePoints,
  createKeywordMatcher,
  createPathMatcher,
  diagnostic,
  mayReadOutsideProject,
} from "@skillctx/core";
import type { Diagnostic, Skill, SkillCache, Trust } from "@skillctx/core";
import { isInside, loadSkillSources, projectRoot, realPathOrSelf, toPosix } from "@skillctx/core/internal";
import { budgetedNote, NestedNoteBudget } from "./nested-note-budget.js";
import { yieldToLocal } from "./name-precedence.js";
import type { NameHolders } from "./name-precedence.js";
import { verifySignatures } from "@skillctx/sources";
import type { VerifySettings } from "@skillctx/sources";
import type { SkillSet } from "../context-types.js";
import type { TouchedPaths } from "./conversation.js";
import type { Attachment } from "./state.js";
import type { Templates } from "./templates.js";

/** The skill folders looked for in each sub-folder a tool call touches (Claude Code's, and the Agent Skills one). */
export const NESTED_SKILL_DIRS: readonly string[] = [".claude/skills", ".agents/skills"];
/** Most nested skill folders one context reveals; past it a `NESTED_SKILLS_LIMIT` warning. */
export const DEFAULT_MAX_NESTED_FOLDERS = 100;
/** Most sub-folders looked at (two `stat` calls each) in one step; the rest wait for a later touch. */
export const MAX_NESTED_CHECKS_PER_STEP = 1_000;
/** Deepest sub-folder below the project root looked at (the root's children are depth 1). */
export const MAX_NESTED_DEPTH = 16;
/** Touched paths remembered as settled (nothing to look at); the memory is cleared past it. */
const MAX_SETTLED_PATHS = 10_000;

/** The `conversation.nestedSkills` option: on (the default), off, or on with a cap on revealed folders. */
export type NestedSkillsSetting =
  | boolean
  | {
      /** Most nested skill folders one context reveals. @default 100 */
      maxFolders?: number;
    };

/** One folder a step revealed (or whose note left the conversation and is attached again). */
export interface RevealedFolder {
  /** Relative to the project root, `/`-separated. */
  folder: string;
  /** Skills that join the skill set (empty when the folder was revealed before). */
  skills: Skill[];
  /** The catalog note, attached to the tool result; undefined when no skill of the folder is listed. */
  note: Attachment | undefined;
}

/** What a step's look at the touched paths found. */
export interface NestedDiscovery {
  found: RevealedFolder[];
  /** Sub-folders looked at: marked once the step commits, so an aborted step looks again. */
  checked: string[];
  diagnostics: Diagnostic[];
  /** The cut line of each tool result whose notes were over its budget (nested-note-budget.ts). */
  cutLines: Attachment[];
}

export interface NestedSkillsOptions {
  cwd: string;
  homeDir?: string | undefined;
  /** Names that mark the project root (the context's `sources.projectRootMarkers`). @default [".git"] */
  rootMarkers?: readonly string[] | undefined;
  trust?: Trust | undefined;
  cache?: SkillCache | undefined;
  setting?: NestedSkillsSetting | undefined;
  /** The context's `verify` option, read at each load: nested skills pass the signature gate every skill passes. */
  verify?: (() => VerifySettings | undefined) | undefined;
}

/** What one look needs from the context. */
export interface NestedLookup {
  skills: SkillSet;
  /** Revealed folders (state). */
  revealed: ReadonlySet<string>;
  /** Whether a revealed folder's note is still attached to a present message. */
  isNoted(folder: string): boolean;
  templates: Templates;
  catalogFormat: "xml" | "markdown" | undefined;
  loadInstruction: string;
  disabled: ReadonlySet<string>;
  signal: AbortSignal;
  /** `catalog.budgetTokens`: the nested-skill notes of one step take at most this many tokens. */
  budgetTokens?: number | undefined;
}

/** The nested skill folders of one context: which sub-folders were looked at, and the skills of revealed folders. */
export class NestedSkills {
  readonly enabled: boolean;
  private readonly root: string;
  private readonly containRoot: string | undefined;
  private readonly maxFolders: number;
  /** Folders whose skill folders discovery reads at create (the project root and cwd). */
  private readonly known: Set<string>;
  /** Sub-folders looked at before. */
  private readonly checked = new Set<string>();
  /** Skills of each revealed folder, as loaded. */
  private readonly folders = new Map<string, Skill[]>();
  /** Revealed folders by the sub-folder that holds them (absolute). */
  private readonly revealedIn = new Map<string, string[]>();
  /** Touched paths with nothing on the way: every sub-folder looked at, none holding a revealed folder. */
  private readonly settled = new Set<string>();
  private warned = false;

  constructor(private readonly options: NestedSkillsOptions) {
    const setting = options.setting ?? true;
    this.enabled = setting !== false;
    this.maxFolders =
      typeof setting === "object" && setting.maxFolders !== undefined ? setting.maxFolders : DEFAULT_MAX_NESTED_FOLDERS;
    const cwd = path.resolve(options.cwd);
    this.root = projectRoot(cwd, { homeDir: options.homeDir, rootMarkers: options.rootMarkers });
    this.containRoot = mayReadOutsideProject(options.trust) ? undefined : realPathOrSelf(this.root);
    this.known = new Set([this.root, cwd]);
  }

  /**
   * Whether {@link discover} could find anything for `touched`: a sub-folder not looked at yet, or a
   * revealed folder whose note is gone. Synchronous and cheap (set lookups; a path seen before and
   * settled costs one), so a step whose tool results touch known folders skips the look.
   */
  hasWork(touched: readonly TouchedPaths[], isNoted: (folder: string) => boolean): boolean {
    for (const { paths } of touched) {
      for (const touchedPath of paths) {
        if (this.settled.has(touchedPath)) continue;
        let holdsRevealed = false;
        for (const dir of this.dirsOn(touchedPath)) {
          const folders = this.revealedIn.get(dir);
          if (folders !== undefined) {
            holdsRevealed = true;
            if (folders.some((folder) => !isNoted(folder))) return true;
          } else if (!this.known.has(dir) && !this.checked.has(dir)) {
            return true;
          }
        }
        if (holdsRevealed) continue;
        if (this.settled.size >= MAX_SETTLED_PATHS) this.settled.clear();
        this.settled.add(touchedPath);
      }
    }
    return false;
  }

  /**
   * Looks for skill folders in the sub-folders on the way from the project root to each touched path
   * (not the root or cwd, whose folders discovery reads; not below a dot-folder or `node_modules`).
   * A folder with new skills is revealed with a catalog note on the tool result; a revealed folder
   * whose note is gone gets it again. Reads nothing outside the project root (`PATH_OUTSIDE_ROOT`).
   */
  async discover(touched: readonly TouchedPaths[], lookup: NestedLookup): Promise<NestedDiscovery> {
    const result: NestedDiscovery = { found: [], checked: [], diagnostics: [], cutLines: [] };
    const budget = new NestedNoteBudget(lookup.budgetTokens);
    // Names in use: the skill set's, and those revealed by this look.
    const added = new Map<string, Skill>();
    const taken = { get: (name: string) => added.get(name) ?? lookup.skills.byName.get(name) };
    const seen = new Set<string>();
    let checks = 0;
    let revealed = lookup.revealed.size;
    for (const { fingerprint, paths } of touched) {
      for (const touchedPath of paths) {
        for (const dir of this.dirsOn(touchedPath)) {
          if (seen.has(dir) || this.known.has(dir) || this.checked.has(dir)) continue;
          seen.add(dir);
          if (checks >= MAX_NESTED_CHECKS_PER_STEP) {
            this.warnOnce(
              result,
              `more than ${MAX_NESTED_CHECKS_PER_STEP} folders to look at in one step; the rest are looked at when touched again`,
            );
            return budget.addCutLines(result, lookup.loadInstruction);
          }
          checks++;
          // A sub-folder with a revealed folder is looked at again when touched (its note may leave the conversation).
          let holdsRevealed = false;
          for (const name of NESTED_SKILL_DIRS) {
            const absolute = path.join(dir, name);
            const folder = relativeFolder(this.root, absolute);
            if (lookup.revealed.has(folder)) {
              holdsRevealed = true;
              if (!lookup.isNoted(folder) && !result.found.some((f) => f.folder === folder)) {
                result.found.push({
                  folder,
                  skills: [],
                  note: budgetedNote(
                    { folder, skills: this.folders.get(folder) ?? [], match: touchedPath, fingerprint },
                    lookup,
                    budget,
                    result.diagnostics,
                  ),
                });
              }
              continue;
            }
            if (!isFolder(absolute)) continue;
            if (revealed >= this.maxFolders) {
              this.warnOnce(
                result,
                `more than ${this.maxFolders} nested skill folders (conversation.nestedSkills.maxFolders); ${folder} is not read`,
              );
              continue;
            }
            const skills = await this.load(absolute, folder, taken, lookup, result.diagnostics);
            if (skills.length === 0) continue;
            revealed++;
            holdsRevealed = true;
            for (const skill of skills) added.set(skill.name, skill);
            this.remember(folder, skills);
            result.found.push({
              folder,
              skills,
              note: budgetedNote(
                { folder, skills, match: touchedPath, fingerprint },
                lookup,
                budget,
                result.diagnostics,
              ),
            });
          }
          if (!holdsRevealed) result.checked.push(dir);
        }
      }
    }
    return budget.addCutLines(result, lookup.loadInstruction);
  }

  /** Marks sub-folders as looked at (the step that looked committed). */
  markChecked(dirs: readonly string[]): void {
    for (const dir of dirs) this.checked.add(dir);
  }

  /**
   * The skills of folders revealed before (a resumed state, or a reload): read again, contained in the
   * project root. A folder that is not below the root is skipped with a `PATH_OUTSIDE_ROOT` warning.
   */
  async restore(
    folders: ReadonlySet<string>,
    skills: SkillSet,
    disabled: ReadonlySet<string>,
    signal: AbortSignal | undefined,
    diagnostics: Diagnostic[],
  ): Promise<Skill[]> {
    if (!this.enabled || folders.size === 0) return [];
    const taken = new Map(skills.byName);
    const all: Skill[] = [];
    for (const folder of folders) {
      const absolute = path.resolve(this.root, folder);
      if (path.isAbsolute(folder) || !isInside(absolute, this.root) || absolute === this.root) {
        diagnostics.push(
          diagnostic(
            "PATH_OUTSIDE_ROOT",
            "warning",
            `nested skill folder ${JSON.stringify(folder)} in the saved state is not below the project root; skipped`,
          ),
        );
        continue;
      }
      const loaded = await this.load(absolute, folder, taken, { disabled, signal }, diagnostics);
      for (const skill of loaded) taken.set(skill.name, skill);
      this.remember(folder, loaded);
      all.push(...loaded);
    }
    return all;
  }

  // --- private -------------------------------------------------------------------------------------

  // Sub-folders from the root's child down to `touched` itself (it may be a folder), at most
  // MAX_NESTED_DEPTH, stopping at a dot-folder or node_modules; none outside the root.
  private dirsOn(touched: string): string[] {
    const absolute = path.resolve(this.options.cwd, touched);
    if (!isInside(absolute, this.root) || absolute === this.root) return [];
    const parts = path.relative(this.root, absolute).split(path.sep);
    const dirs: string[] = [];
    let dir = this.root;
    for (let depth = 0; depth < parts.length && depth < MAX_NESTED_DEPTH; depth++) {
      const part = parts[depth]!;
      if (part === "node_modules" || part.startsWith(".")) break;
      dir = path.join(dir, part);
      dirs.push(dir);
    }
    return dirs;
  }

  private remember(folder: string, skills: Skill[]): void {
    if (!this.folders.has(folder)) {
      const holder = path.dirname(path.dirname(path.join(this.root, folder)));
      this.revealedIn.set(holder, [...(this.revealedIn.get(holder) ?? []), folder]);
    }
    this.folders.set(folder, skills);
  }

  // The folder's skills through discovery's loader (containment, caps, cache); a name taken by a local skill
  // keeps it, one taken by a remote skill is handed over (name-precedence.ts).
  private async load(
    absolute: string,
    folder: string,
    taken: NameHolders,
    context: { disabled: ReadonlySet<string>; signal: AbortSignal | undefined },
    diagnostics: Diagnostic[],
  ): Promise<Skill[]> {
    const entry = {
      input: absolute,
      scope: "project" as const,
      optional: true,
      ...(this.containRoot !== undefined && { containRoot: this.containRoot }),
    };
    const loaded = await loadSkillSources([entry], {
      baseDir: this.root,
      cache: this.options.cache,
      signal: context.signal,
    });
    diagnostics.push(...loaded.diagnostics);
    // The one signature gate (sources' verifySignatures), as for the skill set: an unsigned nested skill
    // under `verify: { scope: "all" }` is refused here, whether a tool call revealed it or a resume restored it.
    const admitted = await verifySignatures(loaded.skills, this.options.verify?.(), diagnostics, context.signal);
    const skills: Skill[] = [];
    for (const skill of admitted) {
      if (context.disabled.has(skill.name) || skill.trigger.type === "always") continue;
      const holder = taken.get(skill.name);
      // One precedence rule (name-precedence.ts): a remote holder yields to the local skill, never silently.
      if (holder !== undefined && !yieldToLocal(skill, holder, folder, taken, diagnostics)) continue;
      skills.push(skill);
    }
    return skills;
  }

  private warnOnce(result: NestedDiscovery, message: string): void {
    if (this.warned) return;
    this.warned = true;
    result.diagnostics.push(diagnostic("NESTED_SKILLS_LIMIT", "warning", message));
  }
}

/**
 * `base` with `extra` skills added: in `skills`, `byName` and the trigger matchers, but not in
 * `catalog` (what `system` lists never changes mid-conversation). Returns `base` itself when there is nothing to add.
 */
export function withNestedSkills(base: SkillSet, extra: readonly Skill[]): SkillSet {
  if (extra.length === 0) return base;
  const skills = [...base.skills, ...extra].sort((a, b) => compareCodePoints(a.name, b.name));
  return {
    skills,
    byName: new Map(skills.map((skill) => [skill.name, skill])),
    guidance: base.guidance,
    catalog: base.catalog,
    keywords: createKeywordMatcher(skills),
    paths: createPathMatcher(skills),
    diagnostics: base.diagnostics,
    // The tools stay as they were: a nested skill's scripts are reachable when the loaded set had any.
    ...(base.runnableScripts !== undefined && { runnableScripts: base.runnableScripts }),
  };
}

function relativeFolder(root: string, absolute: string): string {
  return toPosix(path.relative(root, absolute));
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
