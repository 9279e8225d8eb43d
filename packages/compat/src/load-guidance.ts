import { mapConcurrent } from "@skillctx/core/internal";
import { lstat, realpath } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { compareCodePoints, diagnostic, mayReadOutsideProject } from "@skillctx/core";
import { invalidOption } from "@skillctx/core/internal";
import type { Diagnostic, Skill, Trust } from "@skillctx/core";
import { buildSkill, candidateName, candidatePath } from "./build-skill.js";
import type { Built } from "./build-skill.js";
import { nestedCandidates, scanLevel, scanUser } from "./candidates.js";
import { capAgentsChain } from "./agents-chain.js";
import { EMULATED_AGENTS, readsAgentsOverride, readsKind } from "./agent-gate.js";
import type { EmulatedAgent } from "./agent-gate.js";
import { CODEX_PROJECT_DOC_MAX_BYTES, DEFAULT_MAX_GUIDANCE_BYTES } from "./limits.js";
import type { Candidate } from "./candidates.js";
import { listNestedGuidance } from "./nested-scan.js";
import { displayPath, isInside } from "./paths.js";
import { repoLayout } from "./repo-layout.js";

/** Options of {@link loadGuidance}. */
export interface LoadGuidanceOptions {
  /**
   * The model the context is built for. Guidance written for one family is kept only for it:
   * `claude` (CLAUDE.md) for Anthropic models, `gemini` (GEMINI.md) for Gemini models, at every level.
   * Unknown or absent keeps everything.
   */
  model?: string | undefined;
  /**
   * The agent whose reading a host emulates where agents disagree; it replaces the model-family gate:
   * CLAUDE.md and Claude Code's other memory files are read only for `claude-code`, GEMINI.md only for
   * `gemini-cli`, AGENTS.override.md only for `codex`. @default none: the model family decides, and
   * AGENTS.override.md is read only for OpenAI-family (Codex) models
   */
  emulate?: EmulatedAgent | undefined;
  /**
   * Names whose presence marks the project root, nearest first, as Codex's `project_root_markers`
   * (`[".git", ".hg", "package.json"]`); `[]` makes cwd the root. @default [".git"]
   */
  rootMarkers?: readonly string[] | undefined;
  /**
   * Also read guidance files below cwd (`server/AGENTS.md`, `pkg/.cursor/rules/*.mdc`) as path rules
   * for their folder.
   * @default true
   */
  includeNested?: boolean | undefined;
  /**
   * Largest guidance text kept, in UTF-8 bytes (imports included); a longer one is cut at a line
   * boundary with a visible note and a `GUIDANCE_TRUNCATED` warning.
   * @default 262144 (256 KiB)
   */
  maxGuidanceBytes?: number | undefined;
  /**
   * Trust, in the vocabulary of every skillctx package. Only `user: true`, given explicitly, lets
   * guidance files, rule folders and CLAUDE.md `@imports` resolve outside the repository (symlinks,
   * `@~/...`, `@../../elsewhere`); otherwise they are skipped with a warning.
   * @default { project: false, user: true } (nothing outside the repository is read)
   */
  trust?: Trust | undefined;
  /** Home folder for `@~/...` imports and user guidance; a git repository there is never the project root. @default os.homedir() */
  homeDir?: string | undefined;
  /**
   * Also read the user's own guidance, before the repository's: `~/.claude/CLAUDE.md`,
   * `~/.claude/rules/*.md` and Codex's `~/.codex/AGENTS.override.md` / `~/.codex/AGENTS.md` (user scope).
   * @default false
   */
  userGuidance?: boolean | undefined;
  /**
   * Codex's `project_doc_max_bytes`: the AGENTS.md chain (`~/.codex/AGENTS.md`, then each folder's
   * AGENTS.override.md or AGENTS.md from the root down to cwd) stops once it holds this many UTF-8
   * bytes: the file that crosses it is cut with a note, later ones are left out (`AGENTS_MD_CAP`).
   * `true` is Codex's default, 32 KiB. @default no cap beyond `maxGuidanceBytes`
   */
  projectDocMaxBytes?: number | boolean | undefined;
  signal?: AbortSignal | undefined;
}

/** The guidance skills found, in prompt order, and what went wrong or was tolerated. */
export interface GuidanceResult {
  skills: Skill[];
  diagnostics: Diagnostic[];
  /**
   * Absolute paths of the SKILL.md files the nested scan saw below cwd (the same git listing or walk, not
   * a second one), for the caller to compare with the skills it loaded. Absent when there is none.
   */
  skillFiles?: string[];
}

const READ_CONCURRENCY = 16;

/**
 * Reads the repository guidance that agents use (AGENTS.md and Codex's AGENTS.override.md, CLAUDE.md,
 * .claude/CLAUDE.md, CLAUDE.local.md, GEMINI.md, .cursorrules, .windsurfrules, .clinerules, Copilot
 * instructions, Cursor, Claude Code and Windsurf rules) under `cwd` as skills.
 *
 * - With `userGuidance`, first the user's own: `~/.claude/CLAUDE.md` (`claude:~`), `~/.claude/rules`
 *   and `~/.codex/AGENTS.md` (`agents:~`), user scope.
 * - At cwd and each folder above it up to the git root, root first (every folder between, as Codex
 *   layers them): always-on skills named by kind (`agents`, `claude`, `claude-dir`, `claude-local`, ...),
 *   suffixed with the folder below the root (`agents:packages/api`).
 * - Below cwd: AGENTS.md / CLAUDE.md / GEMINI.md and `.cursor/rules` become path rules for their folder
 *   (`agents:server` matching `server/**`), listed with `git ls-files` inside a work tree.
 * - Rules: `cursor:<rule>`, `copilot:<rule>`, `claude-rules:<rule>` and `windsurf:<rule>` (with the
 *   folder between when not at the root: `cursor:server:style`). Manual rules (Cursor without globs or
 *   description, Windsurf `trigger: manual`) are commands the user mentions as `@<name>`.
 *
 * Order: by folder (root first), then name, by code point. Never throws for a bad file: it becomes a
 * diagnostic and the other files still load. A cwd that is a file stands for its folder (as Codex's
 * skill loader takes `cwd.parent()`); throws `SkillctxError` only when cwd does not exist.
 *
 * @example
 * const { skills, diagnostics } = await loadGuidance(process.cwd(), { model: "claude-sonnet-4" });
 */
export async function loadGuidance(cwd: string, options: LoadGuidanceOptions = {}): Promise<GuidanceResult> {
  const { signal } = options;
  signal?.throwIfAborted();
  if (options.emulate !== undefined && !EMULATED_AGENTS.includes(options.emulate)) {
    throw invalidOption("guidance.emulate", `one of ${EMULATED_AGENTS.join(", ")}`, {
      got: { value: options.emulate },
    });
  }
  const maxBytes = options.maxGuidanceBytes ?? DEFAULT_MAX_GUIDANCE_BYTES;
  const outsideAllowed = mayReadOutsideProject(options.trust);
  const layout = await repoLayout(cwd, { homeDir: options.homeDir, rootMarkers: options.rootMarkers });
  const reader = { model: options.model, emulate: options.emulate };
  const codex = readsAgentsOverride(reader);
  const containRoot = outsideAllowed ? undefined : layout.realRoot;
  const diagnostics: Diagnostic[] = [];
  const cwdFolder = layout.levels[layout.levels.length - 1]?.folder ?? "";

  const nestedScan =
    options.includeNested === false || layout.atHome
      ? undefined
      : listNestedGuidance(layout.cwd, { git: layout.inGitWorkTree, containRoot, signal });
  const levelScans = layout.levels.map(({ dir, folder }) =>
    scanLevel(
      dir,
      folder,
      { type: "level", up: folder === cwdFolder ? "" : path.posix.relative(folder, cwdFolder) },
      { containRoot, diagnostics, codex },
    ),
  );
  const userScan =
    options.userGuidance === true
      ? scanUser(path.resolve(options.homeDir ?? os.homedir()), cwdFolder, { containRoot, diagnostics, codex })
      : Promise.resolve([]);
  const candidates = [...(await userScan), ...(await Promise.all(levelScans)).flat()];
  let skillFiles: string[] | undefined;
  if (nestedScan !== undefined) {
    const nested = await nestedScan;
    diagnostics.push(...nested.diagnostics);
    skillFiles = nested.skillFiles.map((p) => path.join(layout.cwd, p));
    candidates.push(...nestedCandidates(layout.cwd, cwdFolder, nested.paths, { diagnostics, codex }));
  }
  signal?.throwIfAborted();

  // Guidance written for one agent (CLAUDE.md and Claude Code's other memory files, GEMINI.md).
  const kept = candidates.filter((c) => readsKind(c.type === "file" ? c.spec.kind : c.kind, reader));
  // The user's own guidance first, then by folder (root first), then name.
  const ordered = kept
    .map((candidate) => ({ candidate, name: candidateName(candidate) }))
    .sort(
      (a, b) =>
        Number(isUser(b.candidate)) - Number(isUser(a.candidate)) ||
        compareCodePoints(a.candidate.folder, b.candidate.folder) ||
        compareCodePoints(a.name, b.name),
    );

  const chosen = await dedupe(ordered, { root: layout.root, realRoot: layout.realRoot, outsideAllowed, diagnostics });
  const built = await mapConcurrent(chosen, READ_CONCURRENCY, ({ candidate }) =>
    buildSkill(candidate, {
      root: layout.root,
      realRoot: layout.realRoot,
      maxBytes,
      trust: options.trust,
      homeDir: options.homeDir,
      alreadyLoaded: loadedBeside(candidate, chosen),
      signal,
    }),
  );
  const cap =
    options.projectDocMaxBytes === true
      ? CODEX_PROJECT_DOC_MAX_BYTES
      : options.projectDocMaxBytes === false
        ? undefined
        : options.projectDocMaxBytes;

  const skills: Skill[] = [];
  built.forEach((result: Built, i) => {
    diagnostics.push(...result.diagnostics);
    const skill = result.skill;
    if (skill === undefined) return;
    if (skill.metadata["kind"] === "agents" && skill.content.trim() === "") {
      // Codex skips an empty or whitespace-only AGENTS.md (https://developers.openai.com/codex/guides/agents-md).
      diagnostics.push(
        diagnostic(
          "GUIDANCE_EMPTY",
          "info",
          `${displayPath(skill.source.path ?? skill.name, layout.root)} is empty; left out`,
          {
            path: skill.source.path,
          },
        ),
      );
      return;
    }
    const aliases = chosen[i]?.aliases ?? [];
    if (aliases.length > 0) skill.metadata["aliases"] = aliases.join(", ");
    skills.push(skill);
  });
  const capped = cap === undefined ? skills : capAgentsChain(skills, cap, layout.root, diagnostics);
  return { skills: capped, diagnostics, ...(skillFiles !== undefined && skillFiles.length > 0 && { skillFiles }) };
}

/**
 * The files an `@import` of `candidate` must not inline again, because they are in the prompt already
 * whenever `candidate` is (CLAUDE.md's `@AGENTS.md` bridge, which Claude Code's docs recommend):
 * always-on guidance for an always-on importer; for a path rule, also the other guidance of its folder.
 */
function loadedBeside(candidate: Candidate, chosen: readonly Chosen[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const other of chosen) {
    if (other.candidate === candidate) continue;
    const always = other.candidate.place.type === "level" && other.candidate.type !== "rule";
    const sameFolder = candidate.place.type === "nested" && other.candidate.folder === candidate.folder;
    if (always || sameFolder) out.add(other.real);
  }
  return out;
}

function isUser(candidate: Candidate): boolean {
  return candidate.user === true;
}

interface Chosen {
  candidate: Candidate;
  name: string;
  /** Other paths that reach the same file (symlinks), shown in `metadata.aliases`. */
  aliases: string[];
  /** The file's real path. */
  real: string;
}

/**
 * One skill per real file (the first in order wins; the others become aliases), one per name, and
 * nothing whose real path leaves the repository unless trusted. Also reports shadowed files
 * (`AGENT.md` beside `AGENTS.md`) unless they are the same file.
 */
async function dedupe(
  ordered: ReadonlyArray<{ candidate: Candidate; name: string }>,
  ctx: { root: string; realRoot: string; outsideAllowed: boolean; diagnostics: Diagnostic[] },
): Promise<Chosen[]> {
  const reals = await Promise.all(
    ordered.map(({ candidate }) => realpath(candidatePath(candidate)).catch(() => undefined)),
  );
  const byReal = new Map<string, Chosen>();
  const byName = new Map<string, Chosen>();
  const chosen: Chosen[] = [];
  for (const [i, entry] of ordered.entries()) {
    const real = reals[i];
    const where = candidatePath(entry.candidate);
    const label = displayPath(where, ctx.root);
    if (real === undefined) {
      // A dangling symlink is worth a word; a file deleted since it was listed (still in git's index) is not.
      const info = await lstat(where).catch(() => undefined);
      if (info?.isSymbolicLink() === true) {
        ctx.diagnostics.push(
          diagnostic("GUIDANCE_BROKEN_LINK", "warning", `${label} is a symlink to nothing; skipped`, { path: where }),
        );
      }
      continue;
    }
    if (!ctx.outsideAllowed && !isUser(entry.candidate) && !isInside(real, ctx.realRoot)) {
      ctx.diagnostics.push(
        diagnostic(
          "GUIDANCE_OUTSIDE_REPOSITORY",
          "warning",
          `${label} resolves outside the repository (${real}); skipped (trust: { user: true } allows it)`,
          { path: where },
        ),
      );
      continue;
    }
    const same = byReal.get(real);
    if (same !== undefined) {
      same.aliases.push(label);
      continue;
    }
    const clash = byName.get(entry.name);
    if (clash !== undefined) {
      ctx.diagnostics.push(
        diagnostic(
          "GUIDANCE_NAME_CLASH",
          "warning",
          `${label} would be named "${entry.name}" like ${displayPath(candidatePath(clash.candidate), ctx.root)}; skipped`,
          { path: where },
        ),
      );
      continue;
    }
    const item: Chosen = { ...entry, aliases: [], real };
    byReal.set(real, item);
    byName.set(entry.name, item);
    chosen.push(item);
    if (entry.candidate.type === "file") await reportShadowed(entry.candidate, real, item, ctx);
  }
  return chosen;
}

async function reportShadowed(
  candidate: Extract<Candidate, { type: "file" }>,
  real: string,
  item: Chosen,
  ctx: { root: string; diagnostics: Diagnostic[] },
): Promise<void> {
  for (const other of candidate.shadowed) {
    const otherLabel = displayPath(other, ctx.root);
    if ((await realpath(other).catch(() => undefined)) === real) {
      item.aliases.push(otherLabel);
      continue;
    }
    ctx.diagnostics.push(
      diagnostic(
        "GUIDANCE_SHADOWED",
        "warning",
        `${otherLabel} is ignored: ${path.basename(candidate.file)} in the same folder is read as "${item.name}"`,
        { path: other },
      ),
    );
  }
}
