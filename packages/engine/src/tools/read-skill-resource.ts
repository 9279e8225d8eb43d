import { Buffer } from "node:buffer";
import path from "node:path";
import { listSkillFileNames, readTextLines } from "@skillctx/core/internal";
import { SKILL_CHANGED_CODE, verifiedFileDigest } from "@skillctx/sources";
import { checkRelativePath, resolveInside } from "./skill-paths.js";
import type { SkillToolHost } from "./skill-tools.js";
import { DEFAULT_MAX_RESOURCE_BYTES, folderSkill } from "./skill-tools.js";

/** What the model asked `read_skill_resource` for. */
export interface ResourceRequest {
  name: string;
  path: string;
  /** First line to return, 1-based. @default 1 */
  startLine?: number | undefined;
  /** Last line to return, inclusive. @default the end of the file */
  endLine?: number | undefined;
}

export type ResourceOutcome =
  | { ok: true; skill: string; path: string; text: string; note?: string }
  | { ok: false; skill: string; path: string; message: string };

const HINT_FILES = 20;

/**
 * Reads a text file inside a skill's folder. Refused: traversal (`..`, absolute paths, encoded separators,
 * backslashes, NUL bytes), paths whose real path leaves the folder, folders and special files, binary
 * files, and anything not in the skill's `resources:` list when it has one. Past `maxResourceBytes` the
 * text is cut at a line boundary with a note telling where to read on.
 */
export async function readSkillResource(
  host: SkillToolHost,
  request: ResourceRequest,
  signal?: AbortSignal,
): Promise<ResourceOutcome> {
  const fail = (message: string): ResourceOutcome => ({ ok: false, skill: request.name, path: request.path, message });
  const found = folderSkill(host, request.name);
  if ("error" in found) return fail(found.error);
  const { skill, dir } = found;

  const checked = checkRelativePath(request.path);
  if (!checked.ok) return fail(`Refused ${JSON.stringify(request.path)}: ${checked.reason}.`);
  const relative = checked.path;

  if (skill.resources !== undefined) {
    const declared = skill.resources.map(checkRelativePath).flatMap((entry) => (entry.ok ? [entry.path] : []));
    if (!declared.includes(relative)) {
      return fail(
        `Refused ${relative}: the skill "${skill.name}" declares its readable resources, and this is not one of them: ${declared.join(", ") || "(none)"}.`,
      );
    }
  }

  const resolved = await resolveInside(dir, relative);
  if (!resolved.ok) {
    if (resolved.missing !== true) return fail(`Refused ${relative}: ${resolved.reason}.`);
    return fail(`No file ${relative} in the skill "${skill.name}".${await filesHint(dir, "", signal)}`);
  }
  if (resolved.stats.isDirectory()) {
    return fail(`${relative} is a folder, not a file.${await filesHint(dir, relative, signal)}`);
  }
  if (!resolved.stats.isFile()) return fail(`Refused ${relative}: not a regular file.`);

  const startLine = request.startLine ?? 1;
  const endLine = request.endLine ?? Number.POSITIVE_INFINITY;
  if (endLine < startLine) return fail(`endLine (${endLine}) is before startLine (${startLine}).`);
  const maxBytes = host.settings.maxResourceBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  // A signed skill serves only what was verified: each read is checked against the file's verified digest.
  const digest = verifiedFileDigest(skill, relative);
  if (digest === null)
    return fail(
      `Refused ${relative} (${SKILL_CHANGED_CODE}): it was not part of the skill's folder when its signature was verified.`,
    );
  const read = await readTextLines(resolved.realPath, { startLine, endLine, maxBytes, digest, signal });
  if (!read.ok) {
    if (read.binary) return fail(`Refused ${relative}: it is a binary file; only text files can be read.`);
    if ("mismatch" in read)
      return fail(`Refused ${relative} (${SKILL_CHANGED_CODE}): it changed since the skill's signature was verified.`);
    if ("beyond" in read) {
      return fail(
        `startLine ${startLine} is not within the first ${read.scanned} bytes of ${relative}, which is as far as a read looks; read an earlier line.`,
      );
    }
    return fail(
      read.failure.code === "NOT_FOUND"
        ? `No file ${relative} in the skill "${skill.name}".`
        : `Refused ${relative}: not a regular file.`,
    );
  }
  if (read.last < read.first && !read.splitLine && read.reachedEnd && startLine > 1) {
    return fail(`startLine ${startLine} is past the end of ${relative} (${read.totalLines ?? 0} lines).`);
  }

  const outcome: ResourceOutcome = { ok: true, skill: skill.name, path: relative, text: read.text };
  if (read.cut) {
    const shown = read.splitLine ? `the start of line ${read.last}` : `lines ${read.first}-${read.last}`;
    outcome.note = `[Cut at ${maxBytes} bytes: showing ${shown} of ${relative} (${resolved.stats.size} bytes in all). Read on with startLine ${read.last + 1}.]`;
  }
  if (host.events.wants("resource.read")) {
    host.events.emit({
      type: "resource.read",
      skill: skill.name,
      path: relative,
      bytes: Buffer.byteLength(read.text),
      ...(read.cut && { truncated: true }),
    });
  }
  return outcome;
}

/** The tool result text: the file's text, then the note when it was cut. */
export function formatResource(outcome: Extract<ResourceOutcome, { ok: true }>): string {
  if (outcome.note === undefined) return outcome.text === "" ? "(empty file)" : outcome.text;
  return `${outcome.text.replace(/\n?$/, "\n")}\n${outcome.note}`;
}

async function filesHint(dir: string, under: string, signal: AbortSignal | undefined): Promise<string> {
  const listing = await listSkillFileNames(path.join(dir, under), { max: HINT_FILES, signal });
  if (listing.files.length === 0) return "";
  const prefix = under === "" ? "" : `${under}/`;
  const more = listing.omitted > 0 ? `, and ${listing.omitted} more` : "";
  return ` Files: ${listing.files.map((file) => prefix + file).join(", ")}${more}.`;
}
