/**
 * What a signature check verified, kept with the skill, so that what is served is what was verified:
 * the body comes from the bytes the folder digest covered (set on the skill at verification, never read
 * again lazily), and each other file is re-checked against its verified digest on every read
 * (`readTextLines` with `digest`; a file changed or added since is refused with
 * `SKILL_CHANGED_SINCE_VERIFIED`). A leaf module: sources and the engine's tools read it.
 */
import { safeParseSkill, splitFrontmatter } from "@skillctx/core";
import type { Skill } from "@skillctx/core";
import { decodeStrict, listSkillFiles, toPosixRelative } from "@skillctx/core/internal";
import type { SkillFile } from "@skillctx/core/internal";

/** What a skill was verified over: its folder, the folder digest, each file's digest by relative path, the bundle's name. */
interface Verified {
  dir: string;
  digest: string;
  files: ReadonlyMap<string, string>;
  bundle: string;
}
const verified = new WeakMap<Skill, Verified>();

/** The code of the refusal of a verified skill's file that changed (or appeared) after verification. */
export const SKILL_CHANGED_CODE = "SKILL_CHANGED_SINCE_VERIFIED";

/**
 * Records that `skill` was verified over `files` (listed with their bytes) and fixes its body to the
 * verified bytes of its skill file. Returns why that cannot be done (the skill file is not among the
 * verified files, or is not UTF-8), or undefined.
 */
export function takeVerifiedSnapshot(
  skill: Skill,
  dir: string,
  listing: { files: readonly SkillFile[]; digest: string },
  bundle: string,
): string | undefined {
  const files = listing.files;
  const skillFile =
    (skill.source.path === undefined ? undefined : toPosixRelative(dir, skill.source.path)) ?? "SKILL.md";
  const own = files.find((f) => f.path === skillFile);
  if (own?.bytes === undefined) return `its skill file ${skillFile} is not among the files the digest covers`;
  const decoded = decodeStrict(own.bytes);
  if (!decoded.ok) return `its skill file ${skillFile} is not UTF-8`;
  const parsed = safeParseSkill(decoded.text, {
    ...(skill.source.path !== undefined && { path: skill.source.path }),
    ...(skill.source.format === "skill-md" || skill.source.format === "legacy" ? { format: skill.source.format } : {}),
    scope: skill.source.scope,
    dir,
  });
  // The body as the lazy reader gives it, from the verified bytes: assigning `content` replaces a lazy body.
  skill.content = parsed.ok ? parsed.skill.content : splitFrontmatter(decoded.text).body;
  verified.set(skill, { dir, digest: listing.digest, files: new Map(files.map((f) => [f.path, f.digest])), bundle });
  return undefined;
}

/**
 * For a skill that passed a signature check: the digest its file at `relative` had then, or `null` when
 * that file was not part of the verified folder. `undefined` for a skill that was not verified.
 */
export function verifiedFileDigest(skill: Skill, relative: string): string | null | undefined {
  const record = verified.get(skill);
  if (record === undefined) return undefined;
  return record.files.get(relative) ?? null;
}

/**
 * For a skill that passed a signature check: why its folder is no longer what was verified (a file
 * changed, added or removed), or undefined when it still is (or the skill was not verified). Scripts
 * run from the folder, and may import its other files: they run only while the whole folder matches.
 */
export async function verifiedFolderChange(skill: Skill, signal?: AbortSignal): Promise<string | undefined> {
  const record = verified.get(skill);
  if (record === undefined) return undefined;
  const listing = await listSkillFiles(record.dir, { skip: (relative) => relative === record.bundle, signal });
  if (listing.complete && listing.digest === record.digest) return undefined;
  return `the folder of the skill "${skill.name}" changed since its signature was verified (${SKILL_CHANGED_CODE}: now ${listing.digest}, verified ${record.digest})`;
}
