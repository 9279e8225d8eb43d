import {
  DEFAULT_URL_TTL_MS,
  MAX_REDIRECTS,
  MAX_URL_INDEX_BYTES,
  MAX_URL_INDEX_SKILLS,
  URL_REQUEST_TIMEOUT_MS,
} from "./limits.js";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import {
  digestBytes,
  isSha256Digest,
  listSkillFiles,
  MAX_SKILL_FILE_DIGEST_BYTES,
  MAX_SKILL_FILES,
  MAX_SKILL_FOLDER_BYTES,
} from "@skillctx/core/internal";
import type { Sha256Digest } from "@skillctx/core/internal";
import { httpUrl, safeParseJson } from "@skillctx/core/internal";
import { readArchive, writeArchiveFiles } from "./archive.js";
import { isDir, locationKey, publishDir, tempDirFor } from "./cache-dir.js";
import { readCacheText } from "./cache-file.js";
import { fetchBytes } from "@skillctx/mcp-bridge/internal";
import type { FetchBytesOptions } from "@skillctx/mcp-bridge/internal";
import type { ResolvedRemote, ResolvedSkill, UrlSkillSource } from "./types.js";
import type { DiagnosticCode } from "@skillctx/core";

/** The index schema this reader speaks: the Agent Skills Discovery RFC v0.2.0 (`$schema` is an opaque identifier). */
export const DISCOVERY_SCHEMA_V0_2 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/** Where the index lives below a source's URL (RFC 8615 well-known prefix). */
export const WELL_KNOWN_INDEX = ".well-known/agent-skills/index.json";

/** Caps and options of {@link resolveUrlSource}. */
export interface UrlSourceOptions {
  cacheDir: string;
  /** Use the cache only: the last index fetched (or the locked one) and the verified copies. */
  offline?: boolean | undefined;
  /** The index revision the lockfile pins (under `lock: "frozen"`): its cached copy is used when present. */
  lockedRevision?: string | undefined;
  /** Time for each request, redirects and body included. @default 30000 */
  timeoutMs?: number | undefined;
  /** @default 1 MiB */
  maxIndexBytes?: number | undefined;
  /** Largest artifact (a SKILL.md or an archive) fetched. @default 16 MiB */
  maxArtifactBytes?: number | undefined;
  /** Largest skill once unpacked. @default 64 MiB */
  maxSkillBytes?: number | undefined;
  /** @default 5 */
  maxRedirects?: number | undefined;
  /** Most skills read from one index. @default 1000 */
  maxSkills?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** The stable key of a URL source in the lockfile: `url:<index URL>`. */
export function urlSourceKey(source: UrlSkillSource): string {
  const index = indexUrlOf(source.url);
  return `url:${index ?? source.url}`;
}

/**
 * The index URL of a source: `<url>/.well-known/agent-skills/index.json` (a URL that already ends in
 * that path is kept), or undefined when `url` is not an absolute http(s) URL.
 */
export function indexUrlOf(url: string): string | undefined {
  const parsed = httpUrl(url);
  if (parsed === undefined) return undefined;
  parsed.hash = "";
  if (parsed.pathname.endsWith(`/${WELL_KNOWN_INDEX}`)) return parsed.href;
  parsed.search = "";
  if (!parsed.pathname.endsWith("/")) parsed.pathname += "/";
  return new URL(WELL_KNOWN_INDEX, parsed).href;
}

/** One entry of a v0.2.0 index, checked. */
interface IndexEntry {
  name: string;
  type: "skill-md" | "archive";
  url: string;
  digest: Sha256Digest;
}

// Agent Skills naming: 1-64 lowercase letters, digits and single hyphens, no hyphen at either end.
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Resolves a well-known URL source (Agent Skills Discovery RFC v0.2.0): fetches
 * `<url>/.well-known/agent-skills/index.json` within caps, checks `$schema`, and for each skill
 * fetches its artifact (`skill-md`: the SKILL.md; `archive`: a `.tar.gz` or `.zip`), verifies the
 * artifact's sha256 digest against the index, unpacks archives with path checks and caps, and writes
 * the verified copy into `<cacheDir>/url/<hash of the index URL>/skills/<name>/<artifact digest>/<name>/`
 * (temp folder, then rename). An artifact already cached under its digest is not fetched again. The
 * revision is the digest of the index bytes; each index is kept under `index/<revision>.json`, so
 * `offline` and a locked revision need no network. One bad skill is a diagnostic, the others load.
 */
export async function resolveUrlSource(source: UrlSkillSource, options: UrlSourceOptions): Promise<ResolvedRemote> {
  const key = urlSourceKey(source);
  const indexUrl = typeof source.url === "string" ? indexUrlOf(source.url) : undefined;
  const origin = source.name ?? (indexUrl === undefined ? String(source.url) : new URL(indexUrl).host);
  const result: ResolvedRemote = {
    key,
    origin,
    resolved: {},
    skills: [],
    diagnostics: [],
    ttlMs: source.ttlMs ?? DEFAULT_URL_TTL_MS,
  };
  const fail = (code: DiagnosticCode, message: string): ResolvedRemote => {
    result.diagnostics.push(diagnostic(code, "error", `URL source ${String(source.url)}: ${message}`));
    return result;
  };
  if (indexUrl === undefined) return fail("URL_SOURCE_INVALID", "give an absolute http:// or https:// URL");

  const home = path.join(options.cacheDir, "url", locationKey(indexUrl));
  const maxIndexBytes = options.maxIndexBytes ?? MAX_URL_INDEX_BYTES;
  const fetchOptions = (maxBytes: number): FetchBytesOptions => ({
    maxBytes,
    timeoutMs: options.timeoutMs ?? URL_REQUEST_TIMEOUT_MS,
    maxRedirects: options.maxRedirects ?? MAX_REDIRECTS,
    signal: options.signal,
  });

  // The index: the locked revision's cached copy, the network, or (offline, unreachable) the last one fetched.
  let index: { bytes: Buffer; url: string } | undefined;
  const locked = options.lockedRevision;
  if (locked !== undefined && isSha256Digest(locked)) {
    const bytes = await readCachedIndex(home, locked, maxIndexBytes, result.diagnostics);
    if (bytes !== undefined) index = { bytes, url: indexUrl };
  }
  if (index === undefined && options.offline !== true) {
    const fetched = await fetchBytes(indexUrl, fetchOptions(maxIndexBytes));
    if (fetched.ok) {
      index = { bytes: fetched.bytes, url: fetched.url };
      await cacheIndex(home, fetched.bytes);
    } else if (!fetched.network) {
      return fail(fetched.code, fetched.message);
    } else {
      result.diagnostics.push(
        diagnostic("URL_UNREACHABLE", "warning", `URL source ${source.url}: ${fetched.message}; using the cache`),
      );
    }
  }
  if (index === undefined) {
    const latest = await readLatestIndex(home, maxIndexBytes, result.diagnostics);
    if (latest === undefined)
      return fail("URL_NOT_CACHED", `${options.offline === true ? "offline and " : ""}no cached index`);
    result.diagnostics.push(
      diagnostic(
        "URL_CACHED",
        "warning",
        `URL source ${source.url}: using the index cached at revision ${digestBytes(latest)}`,
      ),
    );
    index = { bytes: latest, url: indexUrl };
  }
  result.resolved.revision = digestBytes(index.bytes);

  const parsed = parseIndex(index.bytes, options.maxSkills ?? MAX_URL_INDEX_SKILLS);
  result.diagnostics.push(
    ...parsed.diagnostics.map((d) => ({ ...d, message: `URL source ${source.url}: ${d.message}` })),
  );
  if (parsed.entries === undefined) return result;

  for (const entry of parsed.entries) {
    const skill = await fetchSkill(entry, index.url, home, options, fetchOptions);
    if (skill.ok) result.skills.push(skill.skill);
    result.diagnostics.push(
      ...skill.diagnostics.map((d) => ({ ...d, message: `URL source ${source.url}: ${d.message}` })),
    );
  }
  return result;
}

/** Reads a v0.2.0 index: entries with a valid name, type, URL and digest; the rest reported. */
export function parseIndex(
  bytes: Buffer,
  maxSkills: number,
): { entries: IndexEntry[] | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const parsed = safeParseJson(bytes.toString("utf8"));
  if (!parsed.ok) {
    return {
      entries: undefined,
      diagnostics: [diagnostic("URL_INDEX_INVALID", "error", `the index is not JSON (${parsed.error})`)],
    };
  }
  const json = parsed.value;
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return {
      entries: undefined,
      diagnostics: [diagnostic("URL_INDEX_INVALID", "error", "the index is not a JSON object")],
    };
  const record = json as Record<string, unknown>;
  const schema = record["$schema"];
  if (schema !== DISCOVERY_SCHEMA_V0_2) {
    const what =
      schema === undefined
        ? "has no $schema (a v0.1.0 index: it carries no digests, so nothing could be verified)"
        : `has the unknown $schema ${JSON.stringify(String(schema).slice(0, 200))}`;
    return {
      entries: undefined,
      diagnostics: [
        diagnostic("URL_INDEX_UNSUPPORTED", "error", `the index ${what}; expected ${DISCOVERY_SCHEMA_V0_2}`),
      ],
    };
  }
  if (!Array.isArray(record["skills"]))
    return {
      entries: undefined,
      diagnostics: [diagnostic("URL_INDEX_INVALID", "error", "the index has no skills array")],
    };
  const listed = record["skills"] as unknown[];
  if (listed.length > maxSkills)
    diagnostics.push(
      diagnostic(
        "URL_INDEX_LIMIT",
        "warning",
        `the index lists ${listed.length} skills; the first ${maxSkills} are read`,
      ),
    );
  const entries: IndexEntry[] = [];
  const names = new Set<string>();
  for (const [i, raw] of listed.slice(0, maxSkills).entries()) {
    const item = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const name = item["name"];
    const label = typeof name === "string" ? JSON.stringify(name.slice(0, 80)) : `#${i}`;
    if (typeof name !== "string" || name.length > 64 || !SKILL_NAME.test(name)) {
      diagnostics.push(
        diagnostic(
          "URL_INDEX_INVALID",
          "warning",
          `skill ${label}: the name must be 1-64 lowercase letters, digits and single hyphens`,
        ),
      );
      continue;
    }
    if (names.has(name)) {
      diagnostics.push(
        diagnostic("URL_INDEX_INVALID", "warning", `skill ${label} is listed twice; the first entry is used`),
      );
      continue;
    }
    if (item["type"] !== "skill-md" && item["type"] !== "archive") {
      diagnostics.push(
        diagnostic(
          "URL_INDEX_UNSUPPORTED",
          "warning",
          `skill ${label}: unknown type ${JSON.stringify(String(item["type"]).slice(0, 40))}; skipped`,
        ),
      );
      continue;
    }
    if (typeof item["url"] !== "string" || item["url"] === "") {
      diagnostics.push(diagnostic("URL_INDEX_INVALID", "warning", `skill ${label} has no url`));
      continue;
    }
    if (!isSha256Digest(item["digest"])) {
      diagnostics.push(
        diagnostic("URL_INDEX_INVALID", "warning", `skill ${label}: the digest must be sha256:<64 lowercase hex>`),
      );
      continue;
    }
    names.add(name);
    entries.push({ name, type: item["type"], url: item["url"], digest: item["digest"] });
  }
  return { entries, diagnostics };
}

type FetchedSkill =
  | { ok: true; skill: ResolvedSkill; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

async function fetchSkill(
  entry: IndexEntry,
  indexUrl: string,
  home: string,
  options: UrlSourceOptions,
  fetchOptions: (maxBytes: number) => FetchBytesOptions,
): Promise<FetchedSkill> {
  const refused = (code: DiagnosticCode, message: string): FetchedSkill => ({
    ok: false,
    diagnostics: [diagnostic(code, "error", `skill ${entry.name}: ${message}; it is not loaded`)],
  });
  // By name and artifact digest: two names with the same bytes get a folder each.
  const entryDir = path.join(home, "skills", entry.name, entry.digest.slice("sha256:".length));
  const dir = path.join(entryDir, entry.name);
  const diagnostics: Diagnostic[] = [];
  if (!(await isDir(dir))) {
    if (options.offline === true) return refused("URL_NOT_CACHED", "offline and not in the cache");
    let artifactUrl: URL;
    try {
      artifactUrl = new URL(entry.url, indexUrl);
    } catch {
      return refused("URL_INDEX_INVALID", `the url ${JSON.stringify(entry.url.slice(0, 200))} is not a URL`);
    }
    if (artifactUrl.protocol !== "https:" && artifactUrl.protocol !== "http:")
      return refused("URL_INDEX_INVALID", `the url uses ${artifactUrl.protocol}; only http and https are fetched`);
    const maxSkillBytes = options.maxSkillBytes ?? MAX_SKILL_FOLDER_BYTES;
    const maxArtifact =
      entry.type === "skill-md"
        ? Math.min(options.maxArtifactBytes ?? MAX_SKILL_FILE_DIGEST_BYTES, maxSkillBytes)
        : (options.maxArtifactBytes ?? MAX_SKILL_FILE_DIGEST_BYTES);
    const fetched = await fetchBytes(artifactUrl.href, fetchOptions(maxArtifact));
    if (!fetched.ok) return refused(fetched.code, fetched.message);
    const actual = digestBytes(fetched.bytes);
    if (actual !== entry.digest)
      return refused("DIGEST_MISMATCH", `${fetched.url} has digest ${actual}, the index says ${entry.digest}`);
    const temp = await tempDirFor(entryDir);
    try {
      const target = path.join(temp, entry.name);
      await mkdir(target);
      if (entry.type === "skill-md") {
        await writeFile(path.join(target, "SKILL.md"), fetched.bytes, { flag: "wx" });
      } else {
        const unpacked = readArchive(fetched.bytes, { maxUnpackedBytes: maxSkillBytes, maxFiles: MAX_SKILL_FILES });
        if (!unpacked.ok) {
          await rm(temp, { recursive: true, force: true });
          return refused("URL_ARCHIVE_INVALID", `the archive ${unpacked.reason}`);
        }
        if (unpacked.skipped.length > 0) {
          diagnostics.push(
            diagnostic(
              "URL_ARCHIVE_LINKS",
              "warning",
              `skill ${entry.name}: links and special files are not unpacked: ${unpacked.skipped.slice(0, 10).join(", ")}`,
            ),
          );
        }
        await writeArchiveFiles(target, unpacked.files);
      }
      await publishDir(temp, entryDir);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      options.signal?.throwIfAborted();
      return refused("URL_CACHE_FAILED", `cannot write the cache (${(error as Error).message})`);
    }
  }
  const listing = await listSkillFiles(dir, { containRoot: dir, signal: options.signal });
  diagnostics.push(...listing.diagnostics);
  return { ok: true, skill: { name: entry.name, dir, digest: listing.digest }, diagnostics };
}

// --- the cached indexes -----------------------------------------------------------------------------

async function cacheIndex(home: string, bytes: Buffer): Promise<void> {
  const revision = digestBytes(bytes).slice("sha256:".length);
  const dir = path.join(home, "index");
  await mkdir(dir, { recursive: true });
  await atomicWrite(path.join(dir, `${revision}.json`), bytes);
  await atomicWrite(path.join(home, "latest"), `${revision}\n`);
}

// Cached files are read back as regular files only (cache-file.ts): a FIFO there is a warning, not a hang.
async function readCachedIndex(
  home: string,
  revision: string,
  maxBytes: number,
  diagnostics: Diagnostic[],
): Promise<Buffer | undefined> {
  const file = path.join(home, "index", `${revision.slice("sha256:".length)}.json`);
  const text = await readCacheText(file, maxBytes, diagnostics);
  if (text === undefined) return undefined;
  const bytes = Buffer.from(text, "utf8");
  return digestBytes(bytes) === revision ? bytes : undefined;
}

async function readLatestIndex(home: string, maxBytes: number, diagnostics: Diagnostic[]): Promise<Buffer | undefined> {
  const revision = (await readCacheText(path.join(home, "latest"), 128, diagnostics))?.trim();
  return revision !== undefined && /^[0-9a-f]{64}$/.test(revision)
    ? await readCachedIndex(home, `sha256:${revision}`, maxBytes, diagnostics)
    : undefined;
}

async function atomicWrite(file: string, data: Buffer | string): Promise<void> {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch {
    await rm(temp, { force: true });
  }
}
