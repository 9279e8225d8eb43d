import { stat } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { compareCodePoints, diagnostic, mayReadOutsideProject, safeParseSkill } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import { MAX_SKILL_FILE_BYTES, readTextFile, walk } from "@skillctx/core/internal";
import { isOrdinaryFolder } from "./formats.js";
import { displayPath } from "./paths.js";
import { repoLayout } from "./repo-layout.js";

/** Which tool a command file belongs to (its `metadata.kind`). */
export type CommandKind = "claude-command" | "cursor-command" | "copilot-prompt" | "cline-workflow";

/** Options of {@link loadCommands}. */
export interface LoadCommandsOptions {
  /** Also read the user's command folders, `~/.claude/commands` and `~/.cursor/commands` (user scope). @default false */
  userCommands?: boolean | undefined;
  /** @default os.homedir() */
  homeDir?: string | undefined;
  /** Names that mark the project root (Codex's `project_root_markers`). @default [".git"] */
  rootMarkers?: readonly string[] | undefined;
  /** Only `user: true`, given explicitly, lets project command folders follow symlinks out of the repository. */
  trust?: { project?: boolean | undefined; user?: boolean | undefined } | undefined;
  /** Largest command file read, in bytes. @default MAX_SKILL_FILE_BYTES (4 MiB) */
  maxBytes?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Command folders, in precedence order within one place. */
const FOLDERS: ReadonlyArray<{ kind: CommandKind; dir: readonly string[]; suffix: string }> = [
  { kind: "claude-command", dir: [".claude", "commands"], suffix: ".md" },
  { kind: "cursor-command", dir: [".cursor", "commands"], suffix: ".md" },
  { kind: "copilot-prompt", dir: [".github", "prompts"], suffix: ".prompt.md" },
  // Cline runs a workflow when the user types its file name: `/release.md`
  // (https://docs.cline.bot/features/slash-commands/workflows; cline/cline src/core/context/instructions/user-instructions/workflows.ts).
  { kind: "cline-workflow", dir: [".clinerules", "workflows"], suffix: ".md" },
];

/** Copilot prompt-file fields that skillctx keeps in `extra` without a warning. */
const COPILOT_FIELDS = ["tools", "mode"] as const;

// Deepest command file below its folder (`.claude/commands/a/b/c.md`), the folder being depth 0.
const COMMAND_MAX_DEPTH = 8;

/**
 * Reads the user-invoked command files of a repository as skills with trigger
 * `{ type: "command", prefix: "/" }` and format `command`: Claude Code's `.claude/commands/**\/*.md`
 * (a sub-folder makes the name `folder:name`, as Claude Code names them), Cursor's
 * `.cursor/commands/*.md` and Copilot's `.github/prompts/*.prompt.md` (named by `name:` or the file).
 * They are never listed in the catalog nor loaded by the model; the user runs them as `/<name>`.
 * Frontmatter is read as a SKILL.md's (`description`, `argument-hint`, `arguments`, `allowed-tools`,
 * `model`, ...); without a description the first body line stands in. Folders are read at cwd, then at
 * the project root (the first of a name wins, with a `NAME_CLASH` warning), then in the home folder
 * when `userCommands` is set. Never throws for a bad file.
 */
export async function loadCommands(
  cwd: string,
  options: LoadCommandsOptions = {},
): Promise<{ skills: Skill[]; diagnostics: Diagnostic[] }> {
  const { signal } = options;
  signal?.throwIfAborted();
  const layout = await repoLayout(cwd, { homeDir: options.homeDir, rootMarkers: options.rootMarkers });
  const containRoot = mayReadOutsideProject(options.trust) ? undefined : layout.realRoot;
  const diagnostics: Diagnostic[] = [];
  // Home is never a project: its command folders are the user's (userCommands), not project ones.
  const places: Array<{ dir: string; scope: "project" | "user" }> = layout.atHome
    ? []
    : [{ dir: layout.cwd, scope: "project" }];
  if (layout.root !== layout.cwd && !layout.atHome) places.push({ dir: layout.root, scope: "project" });
  if (options.userCommands === true) places.push({ dir: path.resolve(options.homeDir ?? os.homedir()), scope: "user" });

  const byName = new Map<string, Skill>();
  for (const place of places) {
    for (const folder of FOLDERS) {
      // Copilot's own prompt files live in the editor's profile, not in ~/.github.
      if (place.scope === "user" && (folder.kind === "copilot-prompt" || folder.kind === "cline-workflow")) continue;
      const dir = path.join(place.dir, ...folder.dir);
      if ((await stat(dir).catch(() => undefined))?.isDirectory() !== true) continue;
      const root = place.scope === "user" ? undefined : containRoot;
      for (const relative of await listCommandFiles(dir, folder.suffix, root, diagnostics, signal)) {
        const file = path.join(dir, ...relative.split("/"));
        const skill = await readCommand(file, relative, folder, {
          scope: place.scope,
          root,
          maxBytes: options.maxBytes ?? MAX_SKILL_FILE_BYTES,
          label: displayPath(file, layout.root),
          diagnostics,
          signal,
        });
        if (skill === undefined) continue;
        const first = byName.get(skill.name);
        if (first !== undefined) {
          diagnostics.push(
            diagnostic(
              "NAME_CLASH",
              "warning",
              `command "/${skill.name}" at ${displayPath(file, layout.root)} is shadowed by ${displayPath(first.source.path ?? "", layout.root)}`,
              { path: file },
            ),
          );
          continue;
        }
        byName.set(skill.name, skill);
      }
    }
  }
  const skills = [...byName.values()].sort((a, b) => compareCodePoints(a.name, b.name));
  return { skills, diagnostics };
}

async function readCommand(
  file: string,
  relative: string,
  folder: (typeof FOLDERS)[number],
  ctx: {
    scope: "project" | "user";
    root: string | undefined;
    maxBytes: number;
    label: string;
    diagnostics: Diagnostic[];
    signal: AbortSignal | undefined;
  },
): Promise<Skill | undefined> {
  const read = await readTextFile(file, { maxBytes: ctx.maxBytes, root: ctx.root, signal: ctx.signal });
  if (!read.ok) {
    if (read.code !== "NOT_FOUND")
      ctx.diagnostics.push(
        diagnostic(read.code, "warning", `command ${ctx.label} not read: ${read.message}`, { path: file }),
      );
    return undefined;
  }
  const parsed = safeParseSkill(read.text, {
    path: file,
    format: "skill-md",
    scope: ctx.scope,
    dir: path.dirname(file),
    ...(folder.kind === "copilot-prompt" && { vendorFields: COPILOT_FIELDS }),
  });
  if (!parsed.ok) {
    ctx.diagnostics.push(
      diagnostic(parsed.error.code, "warning", `command ${ctx.label} not read: ${parsed.error.message}`, {
        path: file,
        line: parsed.error.line,
      }),
    );
    return undefined;
  }
  // A command names and describes itself by its file and first line: those are not findings.
  ctx.diagnostics.push(
    ...parsed.diagnostics.filter(
      (d) => d.code !== "NAME_MISSING" && d.code !== "DESCRIPTION_MISSING" && d.code !== "TRIGGER_CONFLICT",
    ),
  );
  const stem = relative.slice(0, -folder.suffix.length);
  // Cline names a workflow by its file name, suffix included (`/release.md`).
  const fromFile = folder.kind === "cline-workflow" ? relative.split("/").join(":") : stem.split("/").join(":");
  // Copilot names a prompt by its `name:` when it gives one.
  const named = folder.kind === "copilot-prompt" && !parsed.diagnostics.some((d) => d.code === "NAME_MISSING");
  const written = named ? parsed.skill.name : undefined;
  const skill: Skill = {
    ...parsed.skill,
    name: written ?? fromFile,
    source: { kind: "compat", path: file, format: "command", scope: ctx.scope },
    trigger: { type: "command", prefix: "/" },
    metadata: { ...parsed.skill.metadata, kind: folder.kind },
  };
  delete skill.inputs;
  return skill;
}

async function listCommandFiles(
  dir: string,
  suffix: string,
  containRoot: string | undefined,
  diagnostics: Diagnostic[],
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const out: string[] = [];
  const walked = await walk(dir, {
    maxDepth: COMMAND_MAX_DEPTH,
    containRoot,
    signal,
    report: (_relative, name) => name.toLowerCase().endsWith(suffix),
    visit: (entry) => {
      if (entry.type === "dir") return isOrdinaryFolder(entry.name);
      if (entry.name.toLowerCase().endsWith(suffix) && entry.name.length > suffix.length) out.push(entry.relative);
      return false;
    },
  });
  diagnostics.push(...walked.diagnostics);
  return out.sort(compareCodePoints);
}
