import { statSync } from "node:fs";
import { codexMetadataOf, withCodexMetadata } from "./codex-skill-metadata.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import { SkillctxError } from "./errors.js";
import { parseOptions, withLazyContent } from "./lazy-content.js";
import { safeParseSkill } from "./parse-skill.js";
import type { SafeParseSkillResult } from "./parse-skill.js";
import { readHeadSync, readSkillFileSync } from "./read-head.js";
import type { CacheEntry } from "./skill-cache.js";
import { stampOf } from "./scan-cache/file-stamp.js";
import type { FileStamp } from "./scan-cache/file-stamp.js";
import { isAmbiguous, sha256 } from "./scan-cache/persistent-scan.js";
import type { PersistentScan } from "./scan-cache/persistent-scan.js";
import type { Skill } from "./skill.js";
import { reason } from "./walk-skill-dirs.js";
import type { FoundSkillFile } from "./walk-skill-dirs.js";

/** The outcome of loading one skill file. */
export interface LoadedSkillFile {
  skill?: Skill;
  diagnostics: Diagnostic[];
  /** How many file-system calls it took (for pacing). */
  calls: number;
}

/**
 * Loads one skill file's metadata. An unchanged file (same path, size and mtime as its cache entry)
 * costs one `stat` or none; otherwise only its frontmatter head is read and parsed, or the whole
 * file when the head cannot stand alone (no frontmatter, a parse error, or no description, which
 * the parser then takes from the body). The body is never kept: `content` loads lazily.
 */
export function loadSkillFile(
  file: FoundSkillFile,
  entries: Map<string, CacheEntry>,
  persistent?: PersistentScan,
): LoadedSkillFile {
  let calls = 0;
  let stat = file.stat;
  if (stat === undefined) {
    try {
      stat = stampOf(statSync(file.path));
      calls++;
    } catch (error) {
      return { diagnostics: [readFailed(file.path, error)], calls: 1 };
    }
  }
  let entry = entries.get(file.path);
  if (
    entry === undefined ||
    entry.size !== stat.size ||
    entry.mtimeMs !== stat.mtimeMs ||
    entry.format !== file.format ||
    entry.root !== file.root ||
    entry.dir !== file.dir
  ) {
    // The file calls a parse makes: none for a head the walk read, one open-read-close for each read here.
    const reads = { calls: 0 };
    try {
      entry = persistent === undefined ? undefined : fromPersisted(file, stat, persistent, reads);
      entry ??= parseSkillFile(file, stat, reads, persistent !== undefined);
      calls += reads.calls;
    } catch (error) {
      entries.delete(file.path);
      const found = SkillctxError.isInstance(error) ? errorDiagnostic(error, file.path) : readFailed(file.path, error);
      return { diagnostics: [found], calls: calls + reads.calls + 1 };
    }
    entries.set(file.path, entry);
  }
  persistent?.keep(file.path, entry);
  if (!entry.result.ok) return { diagnostics: [errorDiagnostic(entry.result.error, file.path)], calls };
  const { meta } = entry.result;
  // A new object per scan (its body state is its own); nested values are shared with the cache.
  const source =
    meta.source.scope === file.scope && file.origin === undefined
      ? meta.source
      : { ...meta.source, scope: file.scope, ...(file.origin !== undefined && { origin: file.origin }) };
  // Codex's agents/openai.yaml beside a SKILL.md (display name, invocation policy, MCP dependencies).
  const codex =
    file.format === "skill-md" && file.dir !== undefined
      ? codexMetadataOf(file.dir, entry, { root: file.containRoot })
      : undefined;
  const base = codex?.metadata === undefined ? meta : withCodexMetadata(meta, codex.metadata);
  const skill = withLazyContent(base, source, file, entry);
  const diagnostics =
    codex === undefined || codex.diagnostics.length === 0
      ? entry.result.diagnostics
      : [...entry.result.diagnostics, ...codex.diagnostics];
  return { skill, diagnostics, calls: calls + (codex?.calls ?? 0) };
}

// The persisted entry of an unchanged file (its text read again only when its stamp is ambiguous).
function fromPersisted(
  file: FoundSkillFile,
  stat: FileStamp,
  persistent: PersistentScan,
  reads: { calls: number },
): CacheEntry | undefined {
  return persistent.lookup(file.path, stat, file, (of) => {
    reads.calls += 3;
    if (of === "head") return readHeadSync(file.path, { stat }).text;
    return readSkillFileSync(file.path, { containRoot: file.containRoot });
  });
}

function parseSkillFile(
  file: FoundSkillFile,
  stat: FileStamp,
  reads: { calls: number },
  persisting: boolean,
): CacheEntry {
  const { path } = file;
  const parse = parseOptions(file);
  // Keyed by the stat taken before the read: if the file changes meanwhile, its next mtime differs
  // from the entry's and the next scan reads it again.
  let head = file.head;
  if (head === undefined) {
    reads.calls += 3;
    head = readHeadSync(path, { stat });
  }
  let parsed: SafeParseSkillResult | undefined;
  if (head.fenced && !head.whole) {
    parsed = safeParseSkill(head.text, parse);
    // The head stands alone when the parser closed the block at its last line (the head ends at the first
    // dash line; the parser may close later, e.g. past a quoted value, and then the head's body is not
    // empty) and the frontmatter describes the skill.
    if (!(parsed.ok && parsed.skill.content === "" && describedByFrontmatter(parsed.skill, parsed.diagnostics)))
      parsed = undefined;
  }
  let whole = false;
  let text = head.text;
  if (parsed === undefined) {
    if (!head.whole) reads.calls += 3;
    text = head.whole ? head.text : readSkillFileSync(path, { containRoot: file.containRoot });
    parsed = safeParseSkill(text, parse);
    whole = true;
  }
  const base: Omit<CacheEntry, "result"> = {
    size: head.size,
    mtimeMs: head.mtimeMs,
    format: file.format,
    root: file.root,
    dir: file.dir,
    stamp: head.stamp,
  };
  // A stamp that may hide a change (racy, as git calls it): the persistent cache keeps the digest of the text parsed.
  if (isAmbiguous(head.stamp, Date.now())) {
    base.ambiguous = true;
    if (persisting) base.digest = { of: whole && !head.whole ? "whole" : "head", sha256: sha256(text) };
  }
  if (!parsed.ok) return { ...base, result: { ok: false, error: parsed.error } };
  // The parser's own object, with its body dropped.
  parsed.skill.content = "";
  // Strings cut from a text (the description taken from the body, values of the block) can hold on
  // to the whole text in V8; a structured clone copies them, so the body is really let go.
  const { skill: meta, diagnostics } = whole ? structuredClone(parsed) : parsed;
  return { ...base, result: { ok: true, meta, diagnostics } };
}

function errorDiagnostic(error: SkillctxError, path: string): Diagnostic {
  return diagnostic(error.code, "error", error.message, { path: error.path ?? path, line: error.line });
}

function readFailed(path: string, error: unknown): Diagnostic {
  return diagnostic("READ_FAILED", "error", `cannot read ${path}: ${reason(error)}`, { path });
}

// Without a description the parser takes one from the body, which a head does not have.
function describedByFrontmatter(skill: Skill, diagnostics: readonly Diagnostic[]): boolean {
  return skill.description !== undefined && !diagnostics.some((d) => d.code === "DESCRIPTION_MISSING");
}
