import {
  compareCodePoints,
  createKeywordMatcher,
  createPathMatcher,
  diagnostic,
  discoverSkills,
  keepForModel,
} from "@skillctx/core";
import type { Diagnostic, Skill, SkillCache, SkillSourceInput, Trust } from "@skillctx/core";
import { loadCommands, loadGuidance } from "@skillctx/compat";
import { isModelInvocable, loadSkillSources } from "@skillctx/core/internal";
import type { SkillSet } from "../context-types.js";
import { runnableScriptSkills } from "./runnable-scripts.js";
import { unreadSkillFolders } from "./unread-skill-folders.js";
import type { EmulatedAgent } from "@skillctx/compat";
import { mergeRemoteSkills } from "@skillctx/sources";
import type { ResolvedRemote } from "@skillctx/sources";
import { verifySignatures } from "@skillctx/sources";
import type { VerifySettings } from "@skillctx/sources";

export type { SkillSet } from "../context-types.js";
export { skillLocation } from "../skill-location.js";

/** How repository guidance is read (the `guidance` option of a context). */
export interface GuidanceSettings {
  /** Also read guidance files below cwd as path rules for their folder. @default true */
  includeNested?: boolean;
  /** Largest guidance file kept, in UTF-8 bytes. @default 262144 */
  maxGuidanceBytes?: number;
  /**
   * Read the user's own guidance and commands (`~/.claude/CLAUDE.md`, `~/.claude/rules`,
   * `~/.codex/AGENTS.md`, `~/.claude/commands`, `~/.cursor/commands`), user scope.
   * @default the `sources.userSkills` option is `true`
   */
  user?: boolean;
  /**
   * Codex's `project_doc_max_bytes` for the AGENTS.md chain (user file, then root down to cwd); `true`
   * is Codex's 32 KiB. @default no cap beyond `maxGuidanceBytes`
   */
  projectDocMaxBytes?: number | boolean;
  /** Read command files (`.claude/commands`, `.cursor/commands`, `.github/prompts`) as `/name` commands. @default true */
  commands?: boolean;
  /**
   * The agent whose reading is emulated where agents disagree (docs/conventions.md): CLAUDE.md and
   * Claude Code's memory files only for `claude-code`, GEMINI.md only for `gemini-cli`,
   * AGENTS.override.md only for `codex`, whatever the model. @default none: the model family decides
   */
  emulate?: EmulatedAgent;
}

/** The `sources` option group as the skill set reads it (a structural subset of `SourceOptions`). */
export interface SkillSetSources {
  userSkills?: boolean | string[] | undefined;
  homeDir?: string | undefined;
  /** Names that mark the project root (Codex's `project_root_markers`). @default [".git"] */
  projectRootMarkers?: readonly string[] | undefined;
  disabled?: readonly string[] | undefined;
  cache?: SkillCache | undefined;
  /** The persistent scan cache: on by default, in the user's cache folder (under `homeDir` when given). */
  persistentCache?: boolean | { dir?: string | undefined } | undefined;
  /** Signatures required of skill folders (sigstore). */
  verify?: VerifySettings | undefined;
}

/** Where skills come from and which ones apply. */
export interface SkillSetOptions {
  cwd: string;
  skills?: SkillSourceInput[] | undefined;
  /** User folders, project root, disabled names, cache and signatures: the context's `sources` group. */
  sources?: SkillSetSources | undefined;
  model?: string | undefined;
  /** Read repository guidance files (AGENTS.md, CLAUDE.md, ...) and command files. @default true */
  guidance?: boolean | GuidanceSettings | undefined;
  /** Which scopes the caller trusts; guidance reaches files outside the project only with `user: true` given explicitly. */
  trust?: Trust | undefined;
  /** Remote sources already resolved to cached folders: loaded with scope `remote` and their origin. */
  remote?: readonly ResolvedRemote[] | undefined;
  signal?: AbortSignal | undefined;
}

/** Repository guidance and command files for `options.cwd`, as the `guidance` option asks. */
function loadGuidanceAndCommands(options: SkillSetOptions) {
  const { user, commands, ...settings } =
    typeof options.guidance === "object" ? options.guidance : ({} as GuidanceSettings);
  const sources = options.sources ?? {};
  const userGuidance = user ?? sources.userSkills === true;
  return Promise.all([
    loadGuidance(options.cwd, {
      ...settings,
      userGuidance,
      trust: options.trust,
      ...(sources.homeDir !== undefined && { homeDir: sources.homeDir }),
      ...(sources.projectRootMarkers !== undefined && { rootMarkers: sources.projectRootMarkers }),
      ...(options.model !== undefined && { model: options.model }),
      ...(options.signal !== undefined && { signal: options.signal }),
    }),
    commands === false
      ? undefined
      : loadCommands(options.cwd, {
          userCommands: userGuidance,
          trust: options.trust,
          ...(sources.homeDir !== undefined && { homeDir: sources.homeDir }),
          ...(sources.projectRootMarkers !== undefined && { rootMarkers: sources.projectRootMarkers }),
          ...(options.signal !== undefined && { signal: options.signal }),
        }),
  ]);
}

/** Discovers skills and guidance, applies `disabled` and model gating, and indexes the result. */
export async function loadSkillSet(options: SkillSetOptions): Promise<SkillSet> {
  // Guidance and command files are read while the skill scan runs: the scan makes synchronous file calls
  // in batches and yields between them, and the guidance reads (thread-pool calls) complete in those pauses.
  const extras = options.guidance === false ? undefined : loadGuidanceAndCommands(options);
  // Awaited below, after the scan; a scan that throws first must not leave this rejection unhandled.
  extras?.catch(() => undefined);
  const sources = options.sources ?? {};
  const discovered = await discoverSkills({
    cwd: options.cwd,
    ...(options.skills !== undefined && { skills: options.skills }),
    ...(sources.userSkills !== undefined && { userSkills: sources.userSkills }),
    ...(sources.homeDir !== undefined && { homeDir: sources.homeDir }),
    ...(sources.projectRootMarkers !== undefined && { rootMarkers: sources.projectRootMarkers }),
    ...(options.trust !== undefined && { trust: options.trust }),
    ...(sources.cache !== undefined && { cache: sources.cache }),
    persistentCache: persistentCacheOf(sources),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  const diagnostics: Diagnostic[] = [...discovered.diagnostics];
  const remote = await loadRemoteSkills(options.remote ?? [], options, diagnostics);
  const verified = await verifySignatures(
    mergeRemoteSkills(discovered.skills, remote, diagnostics),
    sources.verify,
    diagnostics,
    options.signal,
  );
  const all: Skill[] = verified;

  if (extras !== undefined) {
    const [found, commandFiles] = await extras;
    diagnostics.push(...found.diagnostics, ...(commandFiles?.diagnostics ?? []));
    const taken = new Map(all.map((skill) => [skill.name, skill]));
    // Skills win over guidance and commands of the same name (Claude Code: a skill wins over a command).
    for (const [what, skills] of [
      ["guidance", found.skills],
      ["command", commandFiles?.skills ?? []],
    ] as const) {
      for (const skill of skills) {
        const first = taken.get(skill.name);
        if (first !== undefined) {
          diagnostics.push(
            diagnostic(
              "NAME_CLASH",
              "warning",
              `${what} "${skill.name}" at ${skill.source.path ?? "?"} is shadowed by the ${first.source.format === "command" ? "command" : "skill"} at ${first.source.path ?? "(programmatic)"}`,
              { path: skill.source.path },
            ),
          );
          continue;
        }
        taken.set(skill.name, skill);
        all.push(skill);
      }
    }
    diagnostics.push(...unreadSkillFolders(found.skillFiles, all, diagnostics, options.cwd));
  }

  const disabled = new Set(sources.disabled ?? []);
  // Guidance keeps the order it was found in (root before nested folders); the rest is by name.
  // With `guidance.emulate`, compat has gated the guidance for the emulated agent already; the model does not.
  const emulated = typeof options.guidance === "object" && options.guidance.emulate !== undefined;
  const usable = all
    .filter((skill) => !disabled.has(skill.name))
    .filter(
      (skill) =>
        skill.trigger.type !== "always" ||
        (emulated && skill.source.kind === "compat") ||
        keepForModel(skill.name, options.model),
    );
  const skills = [...usable].sort((a, b) => compareCodePoints(a.name, b.name));
  const paths = createPathMatcher(skills);
  // Globs the matcher refused (GLOB_TOO_COMPLEX, ...): reported once per load, in the next step.
  diagnostics.push(...paths.diagnostics);

  let runnable: ReadonlySet<string> | undefined;
  return {
    skills,
    byName: new Map(skills.map((skill) => [skill.name, skill])),
    guidance: usable.filter((skill) => skill.trigger.type === "always"),
    // Who may invoke: the model only what it could load (not user-only skills or commands).
    catalog: skills.filter(isModelInvocable),
    keywords: createKeywordMatcher(skills),
    paths,
    diagnostics,
    // One `stat` per skill, taken when the tools are first listed rather than by every load: creating a
    // context and reading its catalog (`skillctx list`) never list tools (docs/decisions.md, issue 36).
    get runnableScripts() {
      runnable ??= runnableScriptSkills(skills, options.trust);
      return runnable;
    },
  };
}

// Each remote source's folders, loaded on their own (a clash with a local skill is settled by
// mergeRemoteSkills, not by first-wins), with scope `remote`, the source's origin, and containment in the folder.
async function loadRemoteSkills(
  remote: readonly ResolvedRemote[],
  options: SkillSetOptions,
  diagnostics: Diagnostic[],
): Promise<Skill[]> {
  const skills: Skill[] = [];
  for (const source of remote) {
    // One folder at a time: two skills of one source may share a name (mergeRemoteSkills qualifies them by path).
    for (const s of source.skills) {
      const loaded = await loadSkillSources(
        [{ input: s.dir, scope: "remote" as const, origin: source.origin, containRoot: s.dir }],
        {
          baseDir: undefined,
          cache: options.sources?.cache,
          signal: options.signal,
        },
      );
      diagnostics.push(...loaded.diagnostics);
      skills.push(...loaded.skills);
    }
  }
  return skills;
}

// The scan's persistent cache: off only when asked; its folder given, or the default one (discoverSkills puts
// it under `homeDir` when given).
function persistentCacheOf(sources: SkillSetSources): boolean | { dir: string } {
  const setting = sources.persistentCache ?? true;
  if (setting === false) return false;
  if (typeof setting === "object" && setting.dir !== undefined) return { dir: setting.dir };
  return true;
}
