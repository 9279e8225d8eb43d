/**
 * Skills served over MCP (SEP-2640) as a skill source: list, fetch, verify, and keep verified copies in
 * the cache, which discovery then loads with scope `remote` and the server's host-assigned name as origin.
 *
 * Cache: `<cacheDir>/mcp/<name>/listing.json` (what the last fetch kept, when, for how long, for which
 * server config) and `<cacheDir>/mcp/<name>/sha256-<hex>/<skill-path...>/` (one verified copy per
 * skill, keyed by the `folderDigest` of its listed files). The listing cache lives on disk only: every
 * context and process sharing a cache folder sees the same listing, and a read costs one small file.
 * The client is closed once a resolution ends; a refresh (after `ttlMs`) connects again.
 */
import { DEFAULT_MCP_TTL_MS, MAX_MCP_TTL_MS } from "./limits.js";
import { ellipsizeUtf16, errorText } from "@skillctx/core/internal";
import { randomBytes } from "@skillctx/core/internal";
import { mkdir, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { compareCodePoints, diagnostic, SkillctxError } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import {
  digestBytes,
  isInside,
  MAX_SKILL_FILE_DIGEST_BYTES,
  MAX_SKILL_FILES,
  MAX_SKILL_FOLDER_BYTES,
} from "@skillctx/core/internal";
import { MCP_MAX_MESSAGE_BYTES } from "@skillctx/mcp-bridge/internal";
import { equalValues } from "@skillctx/core/internal";
import { stableStringify } from "./stable-stringify.js";
import { parseServerConfig } from "@skillctx/mcp-bridge";
import { openMcpClient } from "@skillctx/mcp-bridge/internal";
import type { McpServerConfig } from "@skillctx/mcp-bridge";
import { SKILLS_EXTENSION } from "./skills-protocol/protocol.js";
import type { SkillEntry } from "./skills-protocol/protocol.js";
import { checkEntry, frontmatterMismatch, unsafeSegment } from "./mcp-entry.js";
import { digestDir, fromListing, place, readListing, verifiedCopy, writeListing } from "./mcp-skill-cache.js";
import type { ListingFile } from "./mcp-skill-cache.js";
import type { CheckedEntry, EntryLimits } from "./mcp-entry.js";
import { SessionRequestError, SkillSession } from "./mcp-session.js";
import type { ListingLimits } from "./mcp-session.js";
import type { McpSkillSource, RemoteContext, ResolvedRemote, ResolvedSkill } from "./types.js";
import { programRefusal } from "./source-trust.js";
import type { DiagnosticCode } from "@skillctx/core";

/** Caps and timeouts of one MCP source. Every field has a default. */
export interface McpSourceLimits extends ListingLimits, EntryLimits {
  /** Most bytes read from one server in one resolution. @default 256 MiB */
  maxSourceBytes: number;
  /** Longest message the server may send. @default 16 MiB */
  maxMessageBytes: number;
  /** Spawn and handshake. @default 30000 */
  startupTimeoutMs: number;
  /** Each request; the config's `timeout` wins. @default 30000 */
  requestTimeoutMs: number;
  /** The whole resolution. @default 300000 */
  deadlineMs: number;
}

export const DEFAULT_MCP_SOURCE_LIMITS: McpSourceLimits = {
  maxPages: 100,
  maxSkills: 1000,
  maxListBytes: 16 * 1024 * 1024,
  maxFiles: MAX_SKILL_FILES,
  maxFileBytes: MAX_SKILL_FILE_DIGEST_BYTES,
  maxSkillBytes: MAX_SKILL_FOLDER_BYTES,
  maxSourceBytes: 256 * 1024 * 1024,
  maxMessageBytes: MCP_MAX_MESSAGE_BYTES,
  startupTimeoutMs: 30_000,
  requestTimeoutMs: 30_000,
  deadlineMs: 300_000,
};

/** Options of {@link resolveMcpSource} beyond the source and the context. */
export interface ResolveMcpOptions {
  limits?: Partial<McpSourceLimits>;
  /** Variables a stdio server gets on top of the allowlisted environment. */
  env?: Record<string, string>;
  /** The clock (tests). @default Date.now */
  now?: () => number;
}

/**
 * Resolves an MCP skill source to verified local folders. Connects with the MCP SDK client over
 * mcp-bridge's capped transports, requires the `io.modelcontextprotocol/skills` extension, reads
 * `skills/list` within caps, then for each skill reads every listed file with `resources/read` and
 * verifies it (SEP-2640): each file's sha256 digest, the entry's completeness (its own SKILL.md listed,
 * every file inside the skill, nothing else accepted), the fetched SKILL.md's frontmatter equal to the
 * entry's, and the URI's last segment equal to `frontmatter.name`. A digest mismatch asks `skills/get`
 * once for a fresh entry (a skill updated after the listing) before the skill is refused. A skill
 * that fails is dropped with a diagnostic naming the server, the skill and the file; the others load.
 * A listing younger than its `ttlMs` (the server's, else `source.ttlMs`, else 5 minutes) is reused
 * without connecting; offline, or when the server cannot be reached, the cached listing is used.
 * Never throws for what a server does; rejects only when `ctx.signal` aborts.
 */
export async function resolveMcpSource(
  source: McpSkillSource,
  ctx: RemoteContext,
  options: ResolveMcpOptions = {},
): Promise<ResolvedRemote> {
  const name = source.name;
  const key = `mcp:${name}`;
  const refused = (code: DiagnosticCode, message: string): ResolvedRemote => ({
    key,
    origin: name,
    resolved: {},
    skills: [],
    diagnostics: [diagnostic(code, "error", message)],
  });
  const badName = typeof name === "string" ? unsafeSegment(name) : "is not a string";
  if (badName !== undefined)
    return refused(
      "MCP_SOURCE_INVALID",
      `MCP skill source name ${JSON.stringify(String(name)).slice(0, 80)} ${badName}`,
    );
  const parsed = parseServerConfig(name, source.mcp);
  if (parsed.config === undefined)
    return { key, origin: name, resolved: {}, skills: [], diagnostics: parsed.diagnostics };
  const config = parsed.config;
  const limits = { ...DEFAULT_MCP_SOURCE_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const root = path.join(ctx.cacheDir, "mcp", name);
  const configDigest = digestBytes(stableStringify(source.mcp) ?? "null");
  const cached = await readListing(root, configDigest, ctx.signal);

  if (cached !== undefined && (ctx.offline === true || now() < cached.fetchedAt + cached.ttlMs)) {
    const reused = await fromListing(cached, root, key, name);
    if (reused !== undefined) return { ...reused, diagnostics: [...parsed.diagnostics, ...reused.diagnostics] };
  }
  if (ctx.offline === true)
    return refused("MCP_SOURCE_OFFLINE", `MCP server "${name}": working offline and its skills are not cached yet`);

  const untrusted = programRefusal(source, ctx);
  if (untrusted !== undefined)
    return refused("MCP_SERVER_UNTRUSTED", `MCP server "${name}" is not started: ${untrusted}`);
  const deadline = AbortSignal.timeout(limits.deadlineMs);
  const signal = ctx.signal === undefined ? deadline : AbortSignal.any([ctx.signal, deadline]);
  try {
    const fetched = await fetchSkills(config, { source, ctx, limits, root, signal, env: options.env });
    const ttlMs = clampTtl(fetched.ttlMs ?? source.ttlMs ?? DEFAULT_MCP_TTL_MS);
    const listing: ListingFile = {
      version: 1,
      config: configDigest,
      fetchedAt: now(),
      ttlMs,
      revision: revisionOf(fetched.skills),
      skills: fetched.skills.map((s) => ({
        name: s.name,
        uri: s.uri,
        digest: s.digest,
        dir: path.relative(root, s.dir),
      })),
      diagnostics: fetched.diagnostics,
    };
    await writeListing(root, listing);
    return {
      key,
      origin: name,
      resolved: { revision: listing.revision },
      skills: fetched.skills.map(({ name: skill, dir, digest }) => ({ name: skill, dir, digest })),
      diagnostics: [...parsed.diagnostics, ...fetched.diagnostics],
      ttlMs,
    };
  } catch (error) {
    if (ctx.signal?.aborted) throw ctx.signal.reason;
    const why = deadline.aborted ? `did not finish within ${limits.deadlineMs} ms` : describe(error);
    const failure = diagnostic(codeOf(error), "error", `MCP server "${name}": its skills could not be fetched: ${why}`);
    const stale = cached === undefined ? undefined : await fromListing(cached, root, key, name);
    if (stale === undefined)
      return { key, origin: name, resolved: {}, skills: [], diagnostics: [...parsed.diagnostics, failure] };
    const note = diagnostic(
      "MCP_SOURCE_STALE",
      "warning",
      `MCP server "${name}": using its skills cached at ${new Date(cached!.fetchedAt).toISOString()}`,
    );
    return {
      ...stale,
      diagnostics: [...parsed.diagnostics, { ...failure, severity: "warning" }, note, ...stale.diagnostics],
    };
  }
}

interface FetchContext {
  source: McpSkillSource;
  ctx: RemoteContext;
  limits: McpSourceLimits;
  root: string;
  signal: AbortSignal;
  env: Record<string, string> | undefined;
}

interface FetchedSkill extends ResolvedSkill {
  uri: string;
}

async function fetchSkills(
  config: McpServerConfig,
  f: FetchContext,
): Promise<{ skills: FetchedSkill[]; diagnostics: Diagnostic[]; ttlMs: number | undefined }> {
  const server = f.source.name;
  let session: SkillSession | undefined;
  const open = await openMcpClient(config, {
    name: server,
    baseDir: f.ctx.cwd,
    env: f.env,
    maxMessageBytes: f.limits.maxMessageBytes,
    startupTimeoutMs: f.limits.startupTimeoutMs,
    onProblem: (error) => session?.problem(error),
    signal: f.signal,
  });
  try {
    if (open.serverCapabilities?.extensions?.[SKILLS_EXTENSION] === undefined) {
      throw new SkillctxError(
        "MCP_SKILLS_UNSUPPORTED",
        `the server does not declare the ${SKILLS_EXTENSION} extension`,
      );
    }
    session = new SkillSession(open, {
      server,
      timeoutMs: config.timeout ?? f.limits.requestTimeoutMs,
      signal: f.signal,
    });
    const listing = await session.list(f.limits).catch((error: unknown) => {
      if (error instanceof SessionRequestError) throw new SkillctxError("MCP_SKILLS_LIST_FAILED", error.message);
      throw error;
    });
    const diagnostics = [...listing.notes];
    const skills: FetchedSkill[] = [];
    const seen = new Set<string>();
    const budget = { left: f.limits.maxSourceBytes };
    for (const raw of listing.entries) {
      f.signal.throwIfAborted();
      const refuse = (code: DiagnosticCode, reason: string, file?: string): void => {
        diagnostics.push(
          diagnostic(
            code,
            "error",
            `MCP server "${server}": skill ${cut(raw.uri)}${file === undefined ? "" : ` (file ${cut(file)})`} refused: ${reason}`,
          ),
        );
      };
      if (seen.has(raw.uri)) {
        refuse("MCP_SKILL_REFUSED", "it is listed twice");
        continue;
      }
      seen.add(raw.uri);
      const skill = await fetchSkill(raw, session, f, budget, refuse);
      if (skill !== undefined) skills.push(skill);
    }
    return { skills, diagnostics, ttlMs: listing.ttlMs };
  } finally {
    await open.close();
  }
}

type Refuse = (code: DiagnosticCode, reason: string, file?: string) => void;

// One skill: checked, reused from the cache when a verified copy is there, else fetched, verified and
// written. A digest mismatch gets one fresh entry from skills/get (the skill may have changed since the listing).
async function fetchSkill(
  raw: SkillEntry,
  session: SkillSession,
  f: FetchContext,
  budget: { left: number },
  refuse: Refuse,
): Promise<FetchedSkill | undefined> {
  let entry = raw;
  for (let attempt = 0; ; attempt++) {
    const checked = checkEntry(entry, f.limits);
    if (!checked.ok) {
      refuse("MCP_SKILL_REFUSED", checked.reason, checked.file);
      return undefined;
    }
    const dir = path.join(f.root, digestDir(checked.entry.digest), ...checked.entry.segments);
    if (!isInside(dir, f.root)) {
      refuse("MCP_SKILL_REFUSED", "its cache folder would leave the cache");
      return undefined;
    }
    if (await verifiedCopy(dir, checked.entry.digest, f.signal))
      return { name: checked.entry.name, uri: entry.uri, dir, digest: checked.entry.digest };
    const outcome = await download(checked.entry, entry, session, f, budget);
    if (outcome.ok) {
      await place(outcome.tmp, dir, f.root);
      return { name: checked.entry.name, uri: entry.uri, dir, digest: checked.entry.digest };
    }
    if (outcome.code === "MCP_SKILL_DIGEST_MISMATCH" && attempt === 0) {
      const fresh = await session.get(entry.uri);
      if (fresh !== undefined && !sameResources(fresh, entry)) {
        entry = fresh;
        continue;
      }
    }
    refuse(outcome.code, outcome.reason, outcome.file);
    return undefined;
  }
}

type Download = { ok: true; tmp: string } | { ok: false; code: DiagnosticCode; reason: string; file?: string };

// Reads every listed file into a fresh temporary folder under the cache; nothing is kept unless all verify.
async function download(
  checked: CheckedEntry,
  entry: SkillEntry,
  session: SkillSession,
  f: FetchContext,
  budget: { left: number },
): Promise<Download> {
  const tmp = path.join(f.root, `.partial-${process.pid}-${randomBytes(6).toString("hex")}`);
  let ok = false;
  try {
    let total = 0;
    for (const file of checked.files) {
      if (budget.left <= 0)
        return {
          ok: false,
          code: "MCP_SOURCE_TOO_LARGE",
          reason: `the server sent more than ${f.limits.maxSourceBytes} bytes in this resolution`,
        };
      let bytes: Buffer;
      try {
        bytes = await session.read(file.uri, Math.min(f.limits.maxFileBytes, f.limits.maxSkillBytes - total));
      } catch (error) {
        if (!(error instanceof SessionRequestError)) throw error;
        return { ok: false, code: "MCP_SKILL_READ_FAILED", reason: error.message, file: file.uri };
      }
      total += bytes.length;
      budget.left -= bytes.length;
      if (digestBytes(bytes) !== file.digest) {
        return {
          ok: false,
          code: "MCP_SKILL_DIGEST_MISMATCH",
          reason: `its content does not match the listed digest ${file.digest}`,
          file: file.uri,
        };
      }
      if (file.path === "SKILL.md") {
        const mismatch = frontmatterMismatch(entry.frontmatter, bytes.toString("utf8"));
        if (mismatch !== undefined)
          return { ok: false, code: "MCP_SKILL_FRONTMATTER_MISMATCH", reason: mismatch, file: file.uri };
      }
      const target = path.join(tmp, ...file.path.split("/"));
      if (!isInside(target, tmp))
        return {
          ok: false,
          code: "MCP_SKILL_REFUSED",
          reason: "the file would leave its skill folder",
          file: file.uri,
        };
      try {
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, bytes, { flag: "wx" });
      } catch (error) {
        return {
          ok: false,
          code: "MCP_SKILL_REFUSED",
          reason: `its files cannot be laid out as a folder (${(error as NodeJS.ErrnoException).code ?? "error"})`,
          file: file.uri,
        };
      }
    }
    ok = true;
    return { ok: true, tmp };
  } finally {
    if (!ok) await rm(tmp, { recursive: true, force: true });
  }
}

function sameResources(a: SkillEntry, b: SkillEntry): boolean {
  const key = (e: SkillEntry) =>
    JSON.stringify(
      (e.resources ?? [])
        .map((r) => [r.uri, r.digest] as const)
        .sort((x, y) => compareCodePoints(x[0], y[0]) || compareCodePoints(x[1], y[1])),
    );
  return key(a) === key(b) && equalValues(a.frontmatter, b.frontmatter);
}

/** The digest of what a source resolved to: its skills' URIs (in code-point order) and folder digests. */
export function revisionOf(skills: readonly { uri: string; digest: string }[]): string {
  return digestBytes(
    [...skills]
      .sort((a, b) => compareCodePoints(a.uri, b.uri))
      .map((s) => `${s.uri}\0${s.digest}\n`)
      .join(""),
  );
}

function clampTtl(ttl: number): number {
  return Number.isFinite(ttl) && ttl >= 0 ? Math.min(ttl, MAX_MCP_TTL_MS) : DEFAULT_MCP_TTL_MS;
}

function codeOf(error: unknown): DiagnosticCode {
  // A SkillctxError of the MCP client (MCP_SDK_MISSING, MCP_SERVER_START_TIMEOUT, ...) keeps its code.
  return SkillctxError.isInstance(error) && error.code.startsWith("MCP_") ? error.code : "MCP_SOURCE_FAILED";
}

function describe(error: unknown): string {
  return ellipsizeUtf16(errorText(error), 500);
}

function cut(text: string): string {
  return ellipsizeUtf16(text, 200);
}
