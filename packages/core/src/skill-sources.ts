import { realpathSync } from "node:fs";
import * as path from "node:path";
import { diagnostic } from "./diagnostics.js";
import { isInside, statIfPresentSync } from "./fs/paths.js";
import { isScannedSkill } from "./lazy-content.js";
import { stampOf } from "./scan-cache/file-stamp.js";
import { SKILL_RUNTIME, skillSchemas } from "./skill.js";
import type { Skill, SkillInit, SkillScope } from "./skill.js";
import { findSkillFile, reason, walkParentFolder } from "./walk-skill-dirs.js";
import type { FoundSkillFile, LooseFiles, WalkContext } from "./walk-skill-dirs.js";

/**
 * A place skills come from: a skill folder (holds SKILL.md or skill.md), a parent folder of
 * skills, a single `.md` file, or a Skill object.
 */
export type SkillSourceInput = string | SkillInit;

/** One source of a scan, with the scope its file skills get. */
export interface SourceEntry {
  input: SkillSourceInput;
  scope: SkillScope;
  /** A folder that does not exist is skipped without a diagnostic (discovery's well-known folders). */
  optional?: boolean;
  /**
   * Containment (project sources): the real path of the project root. The source, and every symlink
   * below it, must resolve inside it, or it is not read (`PATH_OUTSIDE_ROOT`).
   */
  containRoot?: string;
  /** For a `remote` scope: the source's name, kept as `skill.source.origin`. */
  origin?: string;
  /**
   * A parent folder's loose `.md` files (not `<name>/SKILL.md`): legacy skills, or left out with an info
   * `SKILL_FILE_LOOSE` (`note`). @default "legacy"
   */
  loose?: LooseFiles;
}

/** A skill to load: a file found on disk, or a Skill object given in code. */
export type FoundSkill = { kind: "file"; file: FoundSkillFile } | { kind: "inline"; skill: Skill };

/**
 * Resolves one source into the skills it holds (files are not read yet), appending them to `out`
 * in code-point order. Problems become diagnostics in `context`; nothing is thrown for bad input.
 */
export async function collectSource(
  entry: SourceEntry,
  baseDir: string | undefined,
  context: WalkContext,
  out: FoundSkill[],
): Promise<void> {
  const start = out.length;
  await collectEntry(entry, baseDir, context, out);
  if (entry.origin === undefined) return;
  for (let i = start; i < out.length; i++) {
    const found = out[i]!;
    if (found.kind === "file") found.file.origin = entry.origin;
  }
}

async function collectEntry(
  entry: SourceEntry,
  baseDir: string | undefined,
  context: WalkContext,
  out: FoundSkill[],
): Promise<void> {
  const { input, scope } = entry;
  if (typeof input !== "string") {
    collectObject(input, context, out);
    return;
  }
  if (baseDir === undefined && !path.isAbsolute(input)) {
    context.diagnostics.push(
      diagnostic(
        "PATH_NOT_ABSOLUTE",
        "error",
        `skill source ${JSON.stringify(input)} is relative: give an absolute path, or the cwd option`,
        {
          path: input,
        },
      ),
    );
    return;
  }
  const absolute = baseDir === undefined ? path.resolve(input) : path.resolve(baseDir, input);
  let stats: import("node:fs").Stats | undefined;
  let real: string;
  try {
    // A path under a file (`.clinerules/skills` beside Cline's `.clinerules` file) is absent, as a missing one.
    stats = statIfPresentSync(absolute);
    if (stats === undefined) {
      if (entry.optional !== true) {
        context.diagnostics.push(
          diagnostic("PATH_NOT_FOUND", "error", `skill source not found: ${absolute}`, { path: absolute }),
        );
      }
      return;
    }
    real = realpathSync.native(absolute);
  } catch (error) {
    context.diagnostics.push(
      diagnostic("READ_FAILED", "error", `cannot read skill source ${absolute}: ${reason(error)}`, { path: absolute }),
    );
    return;
  }
  if (context.pacer.tick(2)) await context.pacer.pause();
  const { containRoot } = entry;
  if (containRoot !== undefined && !isInside(real, containRoot)) {
    context.diagnostics.push(
      diagnostic(
        "PATH_OUTSIDE_ROOT",
        "warning",
        `skipped ${absolute}: it resolves to ${real}, outside the project (${containRoot})`,
        {
          path: absolute,
        },
      ),
    );
    return;
  }
  const contained = <T extends FoundSkillFile>(file: T): T => {
    if (containRoot !== undefined) file.containRoot = containRoot;
    return file;
  };

  if (stats.isDirectory()) {
    const skillFile = findSkillFile(absolute, containRoot);
    if (skillFile === undefined) {
      const files: FoundSkillFile[] = [];
      await walkParentFolder(absolute, scope, context, files, containRoot, entry.loose);
      for (const file of files) out.push({ kind: "file", file });
      return;
    }
    if (context.visitedDirs.has(real)) return;
    context.visitedDirs.add(real);
    context.skillDirs.add(real);
    if (skillFile.refused !== undefined) {
      context.diagnostics.push(skillFile.refused);
      return;
    }
    out.push({
      kind: "file",
      file: contained({
        path: skillFile.path,
        format: "skill-md",
        scope,
        dir: absolute,
        stat: skillFile.stamp,
      }),
    });
    return;
  }

  const base = path.basename(absolute).toLowerCase();
  if (!stats.isFile() || !base.endsWith(".md")) {
    context.diagnostics.push(
      diagnostic("UNSUPPORTED_SOURCE", "error", `not a skill folder or a .md file: ${absolute}`, { path: absolute }),
    );
    return;
  }
  if (base === "skill.md") {
    const dir = path.dirname(absolute);
    const realDir = path.dirname(real);
    if (context.visitedDirs.has(realDir)) return;
    context.visitedDirs.add(realDir);
    context.skillDirs.add(realDir);
    const stat = stampOf(stats);
    out.push({ kind: "file", file: contained({ path: absolute, format: "skill-md", scope, dir, stat }) });
    return;
  }
  if (context.seenFiles.has(real)) return;
  context.seenFiles.add(real);
  const root = path.dirname(absolute);
  out.push({
    kind: "file",
    file: contained({ path: absolute, realPath: real, format: "legacy", scope, root, explicit: true }),
  });
}

function collectObject(input: SkillInit, context: WalkContext, out: FoundSkill[]): void {
  if (typeof input !== "object" || input === null) {
    context.diagnostics.push(
      diagnostic("INVALID_SOURCE", "error", `a skill source must be a path or a Skill object, got ${describe(input)}`),
    );
    return;
  }
  // A skill from an earlier scan is valid already; parsing it again would read its lazy body.
  if (isScannedSkill(input)) {
    out.push({ kind: "inline", skill: input as Skill });
    return;
  }
  const candidate =
    (input as Partial<SkillInit>).source === undefined
      ? { ...input, source: { kind: "inline", format: "inline", scope: "programmatic" } }
      : input;
  const parsed = skillSchemas().SkillSchema.safeParse(candidate);
  if (parsed.success) {
    // zod drops symbol keys: the host's runtime data of a programmatic skill (defineSkill) is kept by hand.
    const runtime = (input as { [SKILL_RUNTIME]?: unknown })[SKILL_RUNTIME];
    if (runtime !== undefined) Object.defineProperty(parsed.data, SKILL_RUNTIME, { value: runtime, enumerable: true });
    out.push({ kind: "inline", skill: parsed.data });
    return;
  }
  const name =
    typeof (input as { name?: unknown }).name === "string" ? `"${(input as { name: string }).name}"` : "(unnamed)";
  const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  context.diagnostics.push(
    diagnostic("INVALID_SKILL", "error", `skill object ${name} is not a valid Skill: ${issues.join("; ")}`),
  );
}

function describe(value: unknown): string {
  return value === null ? "null" : typeof value;
}
