/**
 * What a signature check verified, kept with the skill, so that what is served is what was verified:
 * the body comes from the bytes the folder digest covered (set on the skill at verification, never read
 * again lazily), and each other file is re-checked against its verified digest on every read
 * (`readTextLines` with `digest`; a file changed or added since is refused with
 * `SKILL_CHANGED_SINCE_VERIFIED`). A leaf module: sources and the engine's tools read it.
 */
import { safeParseSkill, splitFrontmatter } from "@skillctx/core";
import type { Skill } from "@skillctx/core";
import { decodeStrict, toPosixRelative } from "@skillctx/core/internal";
import type { SkillFile } from "@skillctx/core/internal";

/** The files a verified skill was made of, by path relative to its folder (`/`-separated), with their digests. */
const verified = new WeakMap<Skill, ReadonlyMap<string, string>>();

/** The code of the refusal of a verified skill's file that changed (or appeared) after verification. */
export const SKILL_CHANGED_CODE = "SKILL_CHANGED_SINCE_VERIFIED";

/**
 * Records that `skill` was verified over `files` (listed with their bytes) and fixes its body to the
 * verified bytes of its skill file. Returns why that cannot be done (the skill file is not among the
 * verified files, or is not UTF-8), or undefined.
 */
export function takeVerifiedSnapshot(skill: Skill, dir: string, files: readonly SkillFile[]): string | undefined {
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
  verified.set(skill, new Map(files.map((f) => [f.path, f.digest])));
  return undefined;
}

/**
 * For a skill that passed a signature check: the digest its file at `relative` had then, or `null` when
 * that file was not part of the verified folder. `undefined` for a skill that was not verified.
 */
export function verifiedFileDigest(skill: Skill, relative: string): string | null | undefined {
  const files = verified.get(skill);
  if (files === undefined) return undefined;
  return files.get(relative) ?? null;
}
