/**
 * The on-disk cache of an MCP skill source: `listing.json` (what the last fetch kept, when, for how
 * long, for which server config) and one verified copy per skill under `sha256-<hex>/<skill-path...>/`.
 */
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { SkillctxError } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { isInside, listSkillFiles, randomBytes, readTextFile } from "@skillctx/core/internal";
import type { Sha256Digest } from "@skillctx/core/internal";
import { lazySchemas, parseJson } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import type { ResolvedRemote, ResolvedSkill } from "./types.js";

const listingFileSchema = lazySchemas((z) =>
  z.object({
    version: z.literal(1),
    config: z.string(),
    fetchedAt: z.number(),
    ttlMs: z.number(),
    revision: z.string(),
    skills: z.array(z.object({ name: z.string(), uri: z.string(), digest: z.string(), dir: z.string() })),
    diagnostics: z.array(
      z.object({ code: z.string(), severity: z.enum(["error", "warning", "info"]), message: z.string() }).loose(),
    ),
  }),
);

/** What `<cacheDir>/mcp/<name>/listing.json` holds. */
export type ListingFile = z.infer<ReturnType<typeof listingFileSchema>>;

// Moves a verified temporary folder into place; another process that placed the same digest first wins.
export async function place(tmp: string, dir: string, root: string): Promise<void> {
  try {
    await mkdir(path.dirname(dir), { recursive: true });
    await rm(dir, { recursive: true, force: true }); // a copy that failed verification
    await rename(tmp, dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST" && code !== "ENOTEMPTY") throw error;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  if (!isInside(dir, root)) throw new SkillctxError("MCP_SKILL_REFUSED", "a cache folder left the cache");
}

/** Whether `dir` holds a complete copy whose folder digest is `digest`. */
export async function verifiedCopy(dir: string, digest: Sha256Digest, signal: AbortSignal): Promise<boolean> {
  try {
    if (!(await stat(dir)).isDirectory()) return false;
  } catch {
    return false;
  }
  const listed = await listSkillFiles(dir, { signal });
  return listed.complete && listed.digest === digest;
}

// A cached listing whose folders are all still there (and verify), as a resolved source.
export async function fromListing(
  listing: ListingFile,
  root: string,
  key: string,
  origin: string,
): Promise<ResolvedRemote | undefined> {
  const skills: ResolvedSkill[] = [];
  for (const skill of listing.skills) {
    const dir = path.resolve(root, skill.dir);
    if (!isInside(dir, root) || dir === root) return undefined;
    if (!(await verifiedCopy(dir, skill.digest as Sha256Digest, AbortSignal.timeout(60_000)))) return undefined;
    skills.push({ name: skill.name, dir, digest: skill.digest as Sha256Digest });
  }
  return {
    key,
    origin,
    resolved: { revision: listing.revision },
    skills,
    diagnostics: listing.diagnostics as Diagnostic[],
    ttlMs: listing.ttlMs,
  };
}

/** The cached listing of `root`, when it was written for the same server config. */
export async function readListing(
  root: string,
  configDigest: string,
  signal: AbortSignal | undefined,
): Promise<ListingFile | undefined> {
  const read = await readTextFile(path.join(root, "listing.json"), { maxBytes: 64 * 1024 * 1024, signal });
  if (!read.ok) return undefined;
  try {
    const parsed = listingFileSchema().safeParse(parseJson(read.text));
    return parsed.success && parsed.data.config === configDigest ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the listing of `root` (temp file, then rename). */
export async function writeListing(root: string, listing: ListingFile): Promise<void> {
  await mkdir(root, { recursive: true });
  const tmp = path.join(root, `.listing-${process.pid}-${randomBytes(6).toString("hex")}.json`);
  await writeFile(tmp, `${JSON.stringify(listing, null, 2)}\n`);
  await rename(tmp, path.join(root, "listing.json"));
}

/** The cache folder name of a folder digest (`sha256-<hex>`). */
export function digestDir(digest: Sha256Digest): string {
  return digest.replace(":", "-");
}
