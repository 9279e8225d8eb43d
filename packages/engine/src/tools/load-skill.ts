import type { Skill } from "@skillctx/core";
import { promptAttr, promptLine, promptQuote, readSkillContent } from "@skillctx/core";
import { skillLocation } from "../skill-location.js";
import { capSkillBody } from "../text-cap.js";
import { listSkillFileNames } from "@skillctx/core/internal";
import type { SkillFileList } from "@skillctx/core/internal";
import type { SkillToolHost } from "./skill-tools.js";
import { DEFAULT_MAX_LISTED_FILES, loadableSkillNames, skillNameArg, unknownSkillMessage } from "./skill-tools.js";
import { notLoadableReason, skillFolder } from "../tool-kit/skill-folder.js";
import { errorText } from "@skillctx/core/internal";

/** A skill the model loaded. */
export interface LoadedSkill {
  skill: Skill;
  /** The body, rendered once, capped at `conversation.limits.maxLoadedSkillBytes` and frozen in state (`load:<name>`). */
  body: string;
  /** The skill's folder, relative to cwd when inside it; undefined for a single-file skill. */
  location: string | undefined;
  /** Its files, when it has a folder. */
  files: SkillFileList | undefined;
  /** The skill that was active before and is not any more. */
  previous: string | undefined;
}

export type LoadOutcome = { ok: true; loaded: LoadedSkill } | { ok: false; message: string; available: string[] };

/** State key of a loaded skill's frozen body. */
export const loadKey = (name: string): string => `load:${name}`;

/** Characters of a `license` or `compatibility` value shown to the model, at most. */
const MAX_FIELD_CHARS = 1_024;

/**
 * Loads skill `name` (trimmed) for the model: renders its body once (capped, frozen in state, so a
 * second load gives the same bytes; `${CLAUDE_SKILL_DIR}` and `${CLAUDE_SESSION_ID}` put in), makes it
 * the active skill (deactivating the previous one) and records a `load` activation. Unknown names,
 * `disable-model-invocation` skills, commands, path rules and guidance are refused.
 */
export async function loadSkill(host: SkillToolHost, written: string, signal?: AbortSignal): Promise<LoadOutcome> {
  const name = skillNameArg(written);
  const available = loadableSkillNames(host.skills);
  const skill = host.skills.byName.get(name);
  if (skill === undefined) return { ok: false, message: unknownSkillMessage(name, available), available };
  const refusal = notLoadableReason(skill);
  if (refusal !== undefined) return { ok: false, message: `Cannot load: ${refusal}.`, available };

  let body = host.state.frozen(loadKey(name));
  if (body === undefined) {
    const rendered = await renderLoadedBody(host, skill, signal);
    if ("error" in rendered) return { ok: false, message: `Cannot load "${name}": ${rendered.error}`, available };
    body = rendered.body;
    host.state.freeze(loadKey(name), body);
  }

  const dir = skillFolder(skill);
  const files =
    dir === undefined
      ? undefined
      : await listSkillFileNames(dir, { max: host.settings.maxListedFiles ?? DEFAULT_MAX_LISTED_FILES, signal });
  const previous = host.state.activate(name);
  return {
    ok: true,
    loaded: { skill, body, location: dir === undefined ? undefined : skillLocation(skill, host.cwd), files, previous },
  };
}

/**
 * A skill's body as the model reads it (`load_skill`, `execute_skill`): read, rendered (`` !`cmd` `` as
 * trust allows), variables put in after rendering (the text put in never runs; with `args`, the
 * argument placeholders too, else they stay), capped at `conversation.limits.maxLoadedSkillBytes`. A file that
 * cannot be read is an error message; an abort rejects.
 */
export async function renderLoadedBody(
  host: SkillToolHost,
  skill: Skill,
  signal: AbortSignal | undefined,
  args?: string,
): Promise<{ body: string } | { error: string }> {
  let content: string;
  try {
    content = await readSkillContent(skill, signal === undefined ? {} : { signal });
  } catch (error) {
    signal?.throwIfAborted();
    return { error: errorText(error) };
  }
  return {
    body: capLoadedBody(host, skill, host.substituteVariables(await host.render(content, skill, signal), skill, args)),
  };
}

function capLoadedBody(host: SkillToolHost, skill: Skill, body: string): string {
  const capped = capSkillBody(skill, body, host.limits.maxLoadedSkillBytes, "conversation.limits.maxLoadedSkillBytes");
  if (capped.diagnostic !== undefined) host.diagnostic(capped.diagnostic);
  return capped.text;
}

/** The skill's `license` and `compatibility`, as the load result shows them (as Strands does). */
export function skillNotes(skill: Skill): { license?: string; compatibility?: string } {
  const notes: { license?: string; compatibility?: string } = {};
  if (skill.license !== undefined && skill.license.trim() !== "") notes.license = oneLine(skill.license);
  if (skill.compatibility !== undefined && skill.compatibility.trim() !== "")
    notes.compatibility = oneLine(skill.compatibility);
  return notes;
}

/** Tool names the load result points to, in the toolset's naming. */
export interface LoadResultNames {
  read: string;
  run: string;
}

/**
 * The load result the model sees: the body wrapped as `<skill-loaded name="…">…</skill-loaded>`, then
 * the skill's license and compatibility when it has them, the folder and its files (capped, with a
 * count of the rest), the tool filter in force and what was deactivated.
 */
export function formatLoadedSkill(
  loaded: LoadedSkill,
  names: LoadResultNames,
  filter: "filter" | "refuse" | "off",
): string {
  const { skill } = loaded;
  const lines = [`<skill-loaded name="${promptAttr(skill.name)}">`, loaded.body.trim(), "</skill-loaded>"];
  const notes = skillNotes(skill);
  if (notes.license !== undefined || notes.compatibility !== undefined) {
    lines.push("");
    if (notes.license !== undefined) lines.push(`License: ${promptLine(notes.license)}`);
    if (notes.compatibility !== undefined) lines.push(`Compatibility: ${promptLine(notes.compatibility)}`);
  }
  if (loaded.location !== undefined && loaded.files !== undefined) {
    lines.push("", `Skill folder: ${promptLine(loaded.location)} (relative paths in the skill resolve there)`);
    const { files, omitted, incomplete } = loaded.files;
    if (files.length === 0 && omitted === 0) {
      lines.push("Files: none besides SKILL.md.");
    } else {
      lines.push("Files:", ...files.map((file) => `- ${promptLine(file)}`));
      if (omitted > 0)
        lines.push(`(${incomplete ? "at least " : ""}${omitted} more ${omitted === 1 ? "file" : "files"} not listed)`);
      lines.push(`Read a file with ${names.read}; run a script from scripts/ with ${names.run}.`);
    }
  }
  if (filter !== "off" && skill.allowedTools !== undefined) {
    const allowed =
      skill.allowedTools.length === 0 ? "none besides the skill tools" : skill.allowedTools.map(promptLine).join(", ");
    lines.push("", `While this skill is active, the tools you may use are limited to its allowed-tools: ${allowed}.`);
  }
  if (loaded.previous !== undefined) lines.push("", `The skill ${promptQuote(loaded.previous)} is no longer active.`);
  return lines.join("\n");
}

function oneLine(value: string): string {
  const line = value
    .slice(0, 4 * MAX_FIELD_CHARS)
    .replace(/\s+/g, " ")
    .trim();
  return line.length > MAX_FIELD_CHARS ? `${line.slice(0, MAX_FIELD_CHARS)}… [cut]` : line;
}
