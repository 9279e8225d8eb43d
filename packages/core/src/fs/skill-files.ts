import { createHash } from "../crypto-lib.js";
import { closeSync, readSync } from "node:fs";
import { compareCodePoints } from "../code-point-order.js";
import { diagnostic } from "../diagnostics.js";
import type { Diagnostic } from "../diagnostics.js";
import {
  MAX_SKILL_FILE_DIGEST_BYTES,
  MAX_SKILL_FILES,
  MAX_SKILL_FOLDER_BYTES,
  MAX_SKILL_FOLDER_ENTRIES,
} from "../limits.js";
import { openRegularFileSync } from "./open-file.js";
import { walk } from "./walk.js";
import type { DiagnosticCode } from "../diagnostic-codes.js";

/** A `sha256:<64 lowercase hex>` digest, the form of SEP-2640, lockfiles and signatures. */
export type Sha256Digest = `sha256:${string}`;

/** The digest of raw bytes (or of a string's UTF-8 bytes). */
export function digestBytes(bytes: Uint8Array | string): Sha256Digest {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Whether `value` is a well-formed `sha256:<64 lowercase hex>` digest. */
export function isSha256Digest(value: unknown): value is Sha256Digest {
  return typeof value === "string" && /^sha256:[0-9a-f]{64}$/.test(value);
}

/** One file of a skill folder with its digest. */
export interface SkillFile {
  /** Relative to the skill folder, `/`-separated (`SKILL.md`, `scripts/run.py`). */
  path: string;
  size: number;
  digest: Sha256Digest;
  /** The raw bytes, when `withBytes` was asked for. */
  bytes?: Buffer;
}

/** Options of {@link listSkillFiles}. */
export interface ListSkillFilesOptions {
  /** Real path of the folder symlinks must stay inside. @default the skill folder itself */
  containRoot?: string | undefined;
  /** @default MAX_SKILL_FILES (1,000) */
  maxFiles?: number | undefined;
  /** @default MAX_SKILL_FILE_DIGEST_BYTES (16 MiB) */
  maxFileBytes?: number | undefined;
  /** @default MAX_SKILL_FOLDER_BYTES (64 MiB) */
  maxTotalBytes?: number | undefined;
  /** Keep each file's bytes in the result (serving, signing). @default false */
  withBytes?: boolean | undefined;
  /** Names left out at any depth (besides `.git`). */
  skip?: ((relative: string, name: string) => boolean) | undefined;
  signal?: AbortSignal | undefined;
}

/** What {@link listSkillFiles} found. */
export interface SkillFileListing {
  /** Every regular file, in code-point order of `path`. */
  files: SkillFile[];
  /** {@link folderDigest} of `files`. */
  digest: Sha256Digest;
  /** False when a cap stopped the listing or a file could not be read: the digest does not cover the whole folder. */
  complete: boolean;
  diagnostics: Diagnostic[];
}

/**
 * The one lister of a skill folder's files with their digests: the walker (containment, special
 * files never opened, caps), then each regular file read as raw bytes within caps. `.git` is left
 * out. Used by the skill server (SEP-2640 `resources`), remote sources, the lockfile and signatures,
 * so every place computes the same digests. Never throws for bad input; rejects only when aborted.
 */
export async function listSkillFiles(dir: string, options: ListSkillFilesOptions = {}): Promise<SkillFileListing> {
  const maxFiles = options.maxFiles ?? MAX_SKILL_FILES;
  const maxFileBytes = options.maxFileBytes ?? MAX_SKILL_FILE_DIGEST_BYTES;
  const maxTotalBytes = options.maxTotalBytes ?? MAX_SKILL_FOLDER_BYTES;
  const diagnostics: Diagnostic[] = [];
  const found: { path: string; absolute: string }[] = [];
  let complete = true;
  const walked = await walk(dir, {
    containRoot: options.containRoot ?? dir,
    skip: (name) => name === ".git",
    signal: options.signal,
    visit: (entry) => {
      if (options.skip?.(entry.relative, entry.name) === true) return false;
      if (entry.type === "other") {
        diagnostics.push(
          diagnostic("NOT_A_FILE", "warning", `skipped ${entry.path}: not a regular file`, { path: entry.path }),
        );
        return;
      }
      if (entry.type !== "file") return;
      if (found.length >= maxFiles) {
        if (complete)
          diagnostics.push(
            diagnostic(
              "SKILL_FILES_LIMIT",
              "warning",
              `${dir} has more than ${maxFiles} files; the rest are left out`,
              { path: dir },
            ),
          );
        complete = false;
        return;
      }
      found.push({ path: entry.relative, absolute: entry.path });
    },
  });
  diagnostics.push(...walked.diagnostics);
  if (!walked.complete) complete = false;

  const files: SkillFile[] = [];
  let total = 0;
  for (const file of found.sort((a, b) => compareCodePoints(a.path, b.path))) {
    options.signal?.throwIfAborted();
    const read = readBytes(file.absolute, Math.min(maxFileBytes, maxTotalBytes - total));
    if (!read.ok) {
      diagnostics.push(
        diagnostic(read.code, "warning", `skipped ${file.absolute}: ${read.message}`, { path: file.absolute }),
      );
      complete = false;
      continue;
    }
    total += read.bytes.length;
    const entry: SkillFile = { path: file.path, size: read.bytes.length, digest: digestBytes(read.bytes) };
    if (options.withBytes === true) entry.bytes = read.bytes;
    files.push(entry);
  }
  return { files, digest: folderDigest(files), complete, diagnostics };
}

/**
 * The digest of a whole skill folder: SHA-256 over one line per file, in code-point order of path,
 * `<path>\0<digest>\n`. Any added, removed, renamed or changed file changes it; the order files were
 * found in does not. The lockfile records it and signatures sign it.
 */
export function folderDigest(files: readonly Pick<SkillFile, "path" | "digest">[]): Sha256Digest {
  const sorted = [...files].sort((a, b) => compareCodePoints(a.path, b.path));
  return digestBytes(sorted.map((f) => `${f.path}\0${f.digest}\n`).join(""));
}

type BytesRead = { ok: true; bytes: Buffer } | { ok: false; code: DiagnosticCode; message: string };

// A regular file's raw bytes, at most `max` (one byte more means too large).
function readBytes(file: string, max: number): BytesRead {
  const opened = openRegularFileSync(file);
  if (!opened.ok) return { ok: false, code: opened.code, message: opened.message };
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(65_536, max + 1 - size));
      const n = readSync(opened.fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      size += n;
      if (size > max) return { ok: false, code: "TOO_LARGE", message: `larger than ${max} bytes` };
    }
    return { ok: true, bytes: Buffer.concat(chunks, size) };
  } catch (error) {
    return { ok: false, code: "READ_FAILED", message: (error as Error).message };
  } finally {
    closeSync(opened.fd);
  }
}

/** The files of a skill folder, as listed after its body. */
export interface SkillFileList {
  /** Paths relative to the folder, `/`-separated, in code-point order; at most `max`. */
  files: string[];
  /** Files found but not listed. */
  omitted: number;
  /** The walk stopped at its entry limit, so `omitted` is a lower bound. */
  incomplete: boolean;
}

// Folders that hold tooling, not skill material: left out of the names shown to a model.
const SKIPPED_DIRS = new Set(["node_modules", "__pycache__", ".git", ".venv", "venv"]);

/**
 * Lists the names of the files of a skill folder, for a model to read (`scripts/`, `references/`, `assets/` and the rest), leaving out
 * the root SKILL.md, hidden entries, special files and tooling folders (`node_modules`, `__pycache__`,
 * virtualenvs). Walked with core's one walker: symlinks are followed only while they stay inside the
 * skill folder, every folder once, at most `MAX_SKILL_FOLDER_ENTRIES` (5,000) entries looked at.
 * At most `max` paths are returned; the rest is counted. Unlike {@link listSkillFiles} (every file but
 * `.git`, read and digested: what a skill is made of), nothing is opened.
 */
export async function listSkillFileNames(
  dir: string,
  options: { max: number; maxEntries?: number | undefined; signal?: AbortSignal | undefined },
): Promise<SkillFileList> {
  const found: string[] = [];
  const walked = await walk(dir, {
    containRoot: dir,
    maxEntries: options.maxEntries ?? MAX_SKILL_FOLDER_ENTRIES,
    signal: options.signal,
    skip: (name) => name.startsWith(".") || SKIPPED_DIRS.has(name),
    visit: (entry) => {
      if (entry.type === "dir") return true;
      if (entry.type === "file" && entry.relative !== "SKILL.md" && entry.relative !== "skill.md")
        found.push(entry.relative);
      return false;
    },
  });
  found.sort(compareCodePoints);
  const max = Math.max(0, Math.floor(options.max));
  return { files: found.slice(0, max), omitted: Math.max(0, found.length - max), incomplete: !walked.complete };
}
