/**
 * The host-side rules of SEP-2640 for one `skills/list` entry, before anything is fetched (names, URIs,
 * completeness, caps) and after SKILL.md is fetched (frontmatter equality). Pure functions: the MCP
 * source (`mcp-source.ts`) does the I/O.
 */
import { ellipsizeUtf16, folderDigest, readFrontmatter } from "@skillctx/core/internal";
import type { Sha256Digest } from "@skillctx/core/internal";
import { isDeepStrictEqual } from "node:util";
import { skillFrontmatterJson } from "./skills-protocol/frontmatter-json.js";
import { relativeSkillFile } from "./skills-protocol/protocol.js";
import type { SkillEntry } from "./skills-protocol/protocol.js";

/** One file of a checked entry. */
export interface EntryFile {
  uri: string;
  /** Relative to the skill root, `/`-separated, every segment checked ({@link unsafeSegment}). */
  path: string;
  digest: Sha256Digest;
  size?: number | undefined;
}

/** An entry that passed the checks that need no fetch. */
export interface CheckedEntry {
  uri: string;
  /** The skill's name: the URI's last `<skill-path>` segment, equal to `frontmatter.name`. */
  name: string;
  /** `<skill-path>` segments (prefix and name): the cached copy lives at `<digest>/<segments...>`. */
  segments: string[];
  files: EntryFile[];
  /** `folderDigest` of the listed files: the digest a verified copy has. */
  digest: Sha256Digest;
}

/** Caps on one skill. */
export interface EntryLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxSkillBytes: number;
}

export type EntryCheck = { ok: true; entry: CheckedEntry } | { ok: false; reason: string; file?: string | undefined };

// Control characters, separators, bidirectional overrides: a segment must read as written.
const UNSAFE_CHARS = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\\:/]/u;

/**
 * Why `segment` may not become a folder or file name in the cache (or a skill or origin name), or
 * undefined when it is fine: empty, `.`/`..`-like (any `..`), over 128 characters, or containing `/`,
 * `\`, `:`, control or bidirectional characters.
 */
export function unsafeSegment(segment: string): string | undefined {
  if (segment === "" || segment === ".") return "is empty";
  if (segment.includes("..")) return "contains ..";
  if (segment === ".git") return "is .git";
  if (segment.length > 128) return "is longer than 128 characters";
  if (UNSAFE_CHARS.test(segment)) return "contains /, \\, : or control characters";
  return undefined;
}

/**
 * Checks an entry against the SEP's rules before fetching: `uri` is `<scheme>://<skill-path>/SKILL.md`
 * with safe segments; its last segment equals `frontmatter.name`; `resources` is present (skills
 * without digests are declined), complete (lists the SKILL.md of `uri`), each file inside the skill,
 * listed once, with safe path segments, within the caps (declared sizes are checked here, real sizes
 * when read).
 */
export function checkEntry(raw: SkillEntry, limits: EntryLimits): EntryCheck {
  const uri = raw.uri;
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^?#]*)\/SKILL\.md$/i.exec(uri);
  if (match === null) return { ok: false, reason: "its uri is not <scheme>://<skill-path>/SKILL.md" };
  const segments = match[1]!.split("/");
  for (const segment of segments) {
    const why = unsafeSegment(segment);
    if (why !== undefined) return { ok: false, reason: `its uri has a path segment that ${why}` };
  }
  const name = segments[segments.length - 1]!;
  if (raw.frontmatter["name"] !== name) {
    return {
      ok: false,
      reason: `the last segment of its uri ("${name}") is not its frontmatter name (${shortJson(raw.frontmatter["name"])})`,
    };
  }
  if (raw.resources === undefined)
    return { ok: false, reason: "it lists no resources (no digests): a skill that cannot be verified is declined" };
  if (raw.resources.length > limits.maxFiles)
    return { ok: false, reason: `it lists ${raw.resources.length} files (the cap is ${limits.maxFiles})` };
  const files: EntryFile[] = [];
  const seen = new Set<string>();
  let declared = 0;
  for (const ref of raw.resources) {
    const relative = relativeSkillFile(uri, ref.uri);
    if (relative === undefined) return { ok: false, reason: "it lists a file outside the skill", file: ref.uri };
    for (const segment of relative.split("/")) {
      const why = unsafeSegment(segment);
      if (why !== undefined)
        return { ok: false, reason: `it lists a file whose path has a segment that ${why}`, file: ref.uri };
    }
    if (seen.has(relative)) return { ok: false, reason: "it lists a file twice", file: ref.uri };
    seen.add(relative);
    if (ref.size !== undefined && ref.size > limits.maxFileBytes) {
      return {
        ok: false,
        reason: `it lists a file of ${ref.size} bytes (the cap is ${limits.maxFileBytes})`,
        file: ref.uri,
      };
    }
    declared += ref.size ?? 0;
    files.push({ uri: ref.uri, path: relative, digest: ref.digest as Sha256Digest, size: ref.size });
  }
  if (declared > limits.maxSkillBytes)
    return { ok: false, reason: `its files add up to ${declared} bytes (the cap is ${limits.maxSkillBytes})` };
  if (!seen.has("SKILL.md")) return { ok: false, reason: "its resources do not list its own SKILL.md (incomplete)" };
  return { ok: true, entry: { uri, name, segments, files, digest: folderDigest(files) } };
}

/**
 * Compares a fetched SKILL.md's frontmatter with the entry's, field by field (SEP-2640: any discrepancy
 * is a verification failure). A field matches when the entry's value equals the YAML value with its
 * types (`version: 1` → 1) or as written (→ "1"): servers render YAML to JSON either way.
 * @returns undefined when equal, else which field differs.
 */
export function frontmatterMismatch(listed: Record<string, unknown>, skillMd: string): string | undefined {
  const json = skillFrontmatterJson(skillMd);
  if (!json.ok) return `its SKILL.md has no readable frontmatter (${json.message})`;
  const typed = json.frontmatter;
  let written: Record<string, unknown> | undefined;
  const keys = new Set([...Object.keys(listed), ...Object.keys(typed)]);
  for (const key of keys) {
    const value = listed[key];
    if (isDeepStrictEqual(value, typed[key])) continue;
    // Another server may render YAML scalars as written: the same frontmatter, read the other way.
    written ??= readFrontmatter(skillMd).data ?? {};
    if (isDeepStrictEqual(value, written[key])) continue;
    if (!Object.hasOwn(typed, key)) return `the listing has a frontmatter field "${cut(key)}" that its SKILL.md lacks`;
    if (!Object.hasOwn(listed, key)) return `its SKILL.md has a frontmatter field "${cut(key)}" that the listing lacks`;
    return `the frontmatter field "${cut(key)}" differs between the listing and its SKILL.md`;
  }
  return undefined;
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return cut(text);
}

function cut(text: string): string {
  return ellipsizeUtf16(text, 80);
}
