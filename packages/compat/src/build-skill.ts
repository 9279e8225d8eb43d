import { realpath } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { mayReadOutsideProject } from "@skillctx/core";
import type { Diagnostic, Skill, SkillFormat, Trigger, Trust } from "@skillctx/core";
import type { Candidate } from "./candidate.js";
import { guidanceName } from "./formats.js";
import type { RuleKind } from "./formats.js";
import { folderGlob } from "./globs.js";
import { expandImports } from "./imports.js";
import { displayPath } from "./paths.js";
import { readGuidanceText, truncateText, truncationDiagnostic } from "./read-text.js";
import { readRuleHeader } from "./rule-header.js";
import type { RuleFormat } from "./rule-header.js";
import { ruleTrigger } from "./rule-trigger.js";

/** What building needs to know about the repository and the caller's options. */
export interface BuildContext {
  root: string;
  realRoot: string;
  maxBytes: number;
  /** Only `user: true`, given explicitly, lets reads leave the repository. */
  trust?: Trust | undefined;
  homeDir?: string | undefined;
  /** Real paths already in the prompt as guidance of their own: not inlined again by an `@import`. */
  alreadyLoaded?: ReadonlySet<string> | undefined;
  signal?: AbortSignal | undefined;
}

/** A skill and its findings; `skill` is undefined when the source could not be used. */
export interface Built {
  skill: Skill | undefined;
  diagnostics: Diagnostic[];
}

/** The skill name a candidate will get. */
export function candidateName(candidate: Candidate): string {
  if (candidate.type === "rule") return guidanceName(candidate.kind, candidate.folder, candidate.rule);
  if (candidate.type === "clinerules-dir") return guidanceName(candidate.kind, candidate.folder);
  return guidanceName(candidate.spec.kind, candidate.folder);
}

/** The path that identifies a candidate (a file, or the `.clinerules` folder). */
export function candidatePath(candidate: Candidate): string {
  return candidate.type === "clinerules-dir" ? candidate.dir : candidate.file;
}

/** Reads a candidate and turns it into a skill. Never throws for bad input (only on abort). */
export async function buildSkill(candidate: Candidate, ctx: BuildContext): Promise<Built> {
  if (candidate.type === "rule") return buildRule(candidate, ctx);
  const diagnostics: Diagnostic[] = [];
  const name = candidateName(candidate);
  const where = candidatePath(candidate);
  const label = displayPath(where, ctx.root);
  const metadata: Record<string, string> = {
    kind: candidate.type === "file" ? candidate.spec.kind : candidate.kind,
    folder: candidate.folder === "" ? "." : candidate.folder,
  };
  const user = candidate.user === true;

  let text: string;
  if (candidate.type === "clinerules-dir") {
    const parts: string[] = [];
    for (const file of candidate.files) {
      const read = await readOne(file, ctx, diagnostics, user);
      // A rule's frontmatter is Cline's to read, not the model's: the body only.
      const part = read === undefined ? undefined : stripHeader(read);
      if (part === undefined) continue;
      const gap = part.endsWith("\n") || part === "" ? "" : "\n";
      parts.push(`<!-- ${displayPath(file, ctx.root)} -->\n${part}${gap}`);
    }
    if (parts.length === 0) return { skill: undefined, diagnostics };
    text = parts.join("\n");
  } else {
    const read = await readOne(candidate.file, ctx, diagnostics, user);
    if (read === undefined) return { skill: undefined, diagnostics };
    text = read;
    if (candidate.spec.imports) {
      // A user file's imports stay in its own folder tree (the home folder), as the repository's stay in the repository.
      const home = user
        ? await realpath(path.resolve(ctx.homeDir ?? os.homedir())).catch(() =>
            path.resolve(ctx.homeDir ?? os.homedir()),
          )
        : undefined;
      const expanded = await expandImports(text, candidate.file, {
        repoRoot: home ?? ctx.realRoot,
        displayRoot: home ?? ctx.root,
        trust: ctx.trust,
        maxBytes: ctx.maxBytes,
        homeDir: ctx.homeDir,
        alreadyLoaded: ctx.alreadyLoaded,
        signal: ctx.signal,
      });
      text = expanded.text;
      diagnostics.push(...expanded.diagnostics);
      if (expanded.imported.length > 0) metadata["imports"] = expanded.imported.join(", ");
    }
  }
  // Imports and concatenated rule files count against the same limit as one file.
  const cut = truncateText(text, ctx.maxBytes, label);
  if (cut !== undefined) {
    text = cut.text;
    diagnostics.push(truncationDiagnostic(where, label, cut.size, cut.kept, ctx.maxBytes));
  }
  if (diagnostics.some((d) => d.code === "GUIDANCE_TRUNCATED")) metadata["truncated"] = "true";

  const nested = candidate.place.type === "nested";
  metadata["activation"] = nested ? "path" : "always";
  const trigger: Trigger =
    candidate.place.type === "nested"
      ? { type: "path", globs: [folderGlob(candidate.place.down)] }
      : { type: "always" };
  const skill: Skill = {
    name,
    content: text,
    source: { kind: "compat", path: where, format: "guidance", scope: user ? "user" : "project" },
    dir: candidate.type === "clinerules-dir" ? candidate.dir : path.dirname(candidate.file),
    trigger,
    metadata,
  };
  if (candidate.place.type === "nested")
    skill.description = `Guidance for files under ${candidate.place.down}/ (${label})`;
  return { skill, diagnostics };
}

const RULE_FORMATS: Record<RuleKind, RuleFormat> = {
  cursor: "cursor-mdc",
  copilot: "copilot-instructions",
  "claude-rules": "claude-rule",
  windsurf: "windsurf-rule",
  cline: "claude-rule",
};

// The Skill format of each rule kind (Claude Code and Windsurf rules are plain guidance files).
const SKILL_FORMATS: Record<RuleKind, SkillFormat> = {
  cursor: "cursor-mdc",
  copilot: "copilot-instructions",
  "claude-rules": "guidance",
  windsurf: "guidance",
  cline: "guidance",
};

// The body of a rule file whose frontmatter reads (Cline strips it); the whole text otherwise.
function stripHeader(text: string): string {
  if (!text.startsWith("---")) return text;
  const header = readRuleHeader(text, { path: "", format: "claude-rule" });
  return header.broken ? text : header.body.replace(/^\n+/, "");
}

async function buildRule(candidate: Extract<Candidate, { type: "rule" }>, ctx: BuildContext): Promise<Built> {
  const diagnostics: Diagnostic[] = [];
  const format = RULE_FORMATS[candidate.kind];
  const user = candidate.user === true;
  const text = await readOne(candidate.file, ctx, diagnostics, user);
  if (text === undefined) return { skill: undefined, diagnostics };
  const header = readRuleHeader(text, { path: candidate.file, format });
  diagnostics.push(...header.diagnostics);
  const levelDir =
    candidate.place.type === "level" && candidate.user !== true
      ? path.join(ctx.root, ...candidate.folder.split("/").filter((s) => s !== ""))
      : undefined;
  const decided = ruleTrigger(header, { format, place: candidate.place, file: candidate.file, levelDir });
  diagnostics.push(...decided.diagnostics);
  if (!decided.ok) return { skill: undefined, diagnostics };

  const label = displayPath(candidate.file, ctx.root);
  const metadata: Record<string, string> = {
    kind: candidate.kind,
    folder: candidate.folder === "" ? "." : candidate.folder,
    activation: decided.activation,
  };
  if (diagnostics.some((d) => d.code === "GUIDANCE_TRUNCATED")) metadata["truncated"] = "true";
  const skill: Skill = {
    name: guidanceName(candidate.kind, candidate.folder, candidate.rule),
    // Cline's conditional rules leave a blank line after the header (its own test writes one): not text.
    content: candidate.kind === "cline" ? header.body.replace(/^\n+/, "") : header.body,
    source: {
      kind: "compat",
      path: candidate.file,
      format: SKILL_FORMATS[candidate.kind],
      scope: user ? "user" : "project",
    },
    dir: path.dirname(candidate.file),
    trigger: decided.trigger,
    metadata,
  };
  const description = header.description ?? autoDescription(decided.trigger, label);
  if (description !== undefined) skill.description = description;
  if (Object.keys(header.extra).length > 0) skill.extra = header.extra;
  return { skill, diagnostics };
}

// A path rule without a description still needs one line for the catalog.
function autoDescription(trigger: Trigger, label: string): string | undefined {
  if (trigger.type !== "path") return undefined;
  return `Rule for files matching ${trigger.globs.join(", ")} (${label})`;
}

async function readOne(
  file: string,
  ctx: BuildContext,
  diagnostics: Diagnostic[],
  user = false,
): Promise<string | undefined> {
  const label = displayPath(file, ctx.root);
  // Containment again at the read: the file may have changed since it was listed and checked. The
  // user's own files (home folder) may follow symlinks: the user put them there.
  const root = user || mayReadOutsideProject(ctx.trust) ? undefined : ctx.realRoot;
  const read = await readGuidanceText(file, { maxBytes: ctx.maxBytes, label, root, signal: ctx.signal });
  if (!read.ok) {
    if (read.diagnostic !== undefined) diagnostics.push(read.diagnostic);
    return undefined;
  }
  if (read.truncated !== undefined)
    diagnostics.push(truncationDiagnostic(file, label, read.truncated.size, read.truncated.kept, ctx.maxBytes));
  return read.text;
}
