/**
 * One session with a skill server (SEP-2640) for the MCP source: `skills/list` page by page within caps,
 * `skills/get` for one entry, `resources/read` of one file as raw bytes. Every request has a timeout,
 * and one request is in flight at a time, so a message over the cap (dropped by the transport, its
 * request never answered) is pinned on the request that waits for it and fails that one only.
 */
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import type { McpFrameError, OpenMcpClient } from "@skillctx/mcp-bridge/internal";
import { lazySchemas } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import { SkillEntrySchema, SkillsGetResultSchema } from "./skills-protocol/protocol.js";
import type { SkillEntry } from "./skills-protocol/protocol.js";
import { errorText, ellipsizeUtf16 } from "@skillctx/core/internal";
import type { DiagnosticCode } from "@skillctx/core";

/** Caps of one listing. */
export interface ListingLimits {
  /** Most `skills/list` pages read. */
  maxPages: number;
  /** Most entries kept. */
  maxSkills: number;
  /** Most bytes of entries (their JSON) kept. */
  maxListBytes: number;
}

/** What `skills/list` gave, within the caps. */
export interface Listing {
  entries: SkillEntry[];
  /** The smallest `ttlMs` of its pages, if any page had one. */
  ttlMs: number | undefined;
  notes: Diagnostic[];
}

// A page is read leniently: one malformed entry is left out (with a note), not the whole page.
const schemas = lazySchemas((z) => ({
  unknown: z.unknown(),
  page: z
    .object({
      skills: z.array(z.unknown()),
      nextCursor: z.string().optional(),
      ttlMs: z.number().int().nonnegative().optional(),
    })
    .loose(),
  readResult: z
    .object({
      contents: z.array(
        z.object({ uri: z.string(), text: z.string().optional(), blob: z.string().optional() }).loose(),
      ),
    })
    .loose(),
}));

/** A request failed: timed out, refused, or its answer was over the cap or malformed. */
export class SessionRequestError extends Error {}

/** The server side of one resolution: requests one at a time, each with a timeout and the resolution's signal. */
export class SkillSession {
  readonly #open: OpenMcpClient;
  readonly #server: string;
  readonly #timeoutMs: number;
  readonly #signal: AbortSignal;
  #current: AbortController | undefined;

  constructor(open: OpenMcpClient, options: { server: string; timeoutMs: number; signal: AbortSignal }) {
    this.#open = open;
    this.#server = options.server;
    this.#timeoutMs = options.timeoutMs;
    this.#signal = options.signal;
  }

  /** Fails the request in flight: its answer was dropped by the transport (over the cap). Wired to `onProblem`. */
  problem(error: McpFrameError): void {
    if (error.problem === "oversize")
      this.#current?.abort(new SessionRequestError(`its answer was dropped: ${error.message}`));
  }

  /** `skills/list`, page by page, within `limits`; a repeated cursor ends the listing. */
  async list(limits: ListingLimits): Promise<Listing> {
    const server = this.#server;
    const entries: SkillEntry[] = [];
    const notes: Diagnostic[] = [];
    const cursors = new Set<string>();
    let ttlMs: number | undefined;
    let bytes = 0;
    let cursor: string | undefined;
    let invalid = 0;
    for (let page = 0; ; page++) {
      if (page >= limits.maxPages) {
        notes.push(
          this.#note(
            "MCP_SKILLS_LIST_TRUNCATED",
            `skills/list has more than ${limits.maxPages} pages; the skills of the first ${limits.maxPages} are kept`,
          ),
        );
        break;
      }
      const result = await this.#request("skills/list", cursor === undefined ? {} : { cursor }, schemas().page);
      if (result.ttlMs !== undefined) ttlMs = Math.min(ttlMs ?? Infinity, result.ttlMs);
      for (const raw of result.skills) {
        const entry = SkillEntrySchema.safeParse(raw);
        if (!entry.success) {
          invalid++;
          continue;
        }
        const size = JSON.stringify(entry.data).length;
        if (entries.length >= limits.maxSkills || bytes + size > limits.maxListBytes) {
          const cap =
            entries.length >= limits.maxSkills
              ? `${limits.maxSkills} skills`
              : `${limits.maxListBytes} bytes of entries`;
          notes.push(
            this.#note(
              "MCP_SKILLS_LIST_TRUNCATED",
              `skills/list goes past the cap of ${cap}; the first ${entries.length} skills are kept`,
            ),
          );
          return done();
        }
        bytes += size;
        entries.push(entry.data);
      }
      if (result.nextCursor === undefined) break;
      if (cursors.has(result.nextCursor)) {
        notes.push(
          this.#note(
            "MCP_SKILLS_LIST_TRUNCATED",
            "skills/list repeated a cursor (endless pagination); the skills listed so far are kept",
          ),
        );
        break;
      }
      cursors.add(result.nextCursor);
      cursor = result.nextCursor;
    }
    return done();

    function done(): Listing {
      return { entries, ttlMs, notes: invalid === 0 ? notes : [...notes, invalidNote(invalid)] };
    }
    function invalidNote(count: number): Diagnostic {
      return diagnostic(
        "MCP_SKILL_REFUSED",
        "warning",
        `MCP server "${server}": ${count} skills/list entries are not valid skill entries (uri, frontmatter, resources with sha256 digests) and were left out`,
      );
    }
  }

  /** `skills/get` of one skill, or undefined when the server refuses or answers something else. */
  async get(uri: string): Promise<SkillEntry | undefined> {
    try {
      const result = await this.#request("skills/get", { uri }, SkillsGetResultSchema);
      return result.skill.uri === uri ? result.skill : undefined;
    } catch {
      if (this.#signal.aborted) throw this.#signal.reason;
      return undefined;
    }
  }

  /** `resources/read` of one file as raw bytes (text as UTF-8, blobs decoded). Throws {@link SessionRequestError}. */
  async read(uri: string, maxBytes: number): Promise<Buffer> {
    const result = await this.#request("resources/read", { uri }, schemas().readResult);
    if (result.contents.length !== 1 || result.contents[0]!.uri !== uri) {
      throw new SessionRequestError(
        `resources/read answered ${result.contents.length} contents instead of exactly the file asked for`,
      );
    }
    const content = result.contents[0]!;
    const bytes =
      content.text !== undefined
        ? Buffer.from(content.text, "utf8")
        : content.blob !== undefined
          ? Buffer.from(content.blob, "base64")
          : undefined;
    if (bytes === undefined) throw new SessionRequestError("resources/read answered neither text nor blob");
    if (bytes.length > maxBytes)
      throw new SessionRequestError(`the file has ${bytes.length} bytes (the cap is ${maxBytes})`);
    return bytes;
  }

  // One request at a time: `problem` knows which one an over-size answer belonged to.
  async #request<T extends z.ZodType>(method: string, params: Record<string, unknown>, schema: T): Promise<z.infer<T>> {
    this.#signal.throwIfAborted();
    const local = new AbortController();
    const forward = (): void => local.abort(this.#signal.reason);
    this.#signal.addEventListener("abort", forward, { once: true });
    this.#current = local;
    try {
      const raw = await this.#open.client.request({ method, params }, schemas().unknown, {
        signal: local.signal,
        timeout: this.#timeoutMs,
        maxTotalTimeout: this.#timeoutMs,
      });
      const parsed = schema.safeParse(raw);
      if (!parsed.success) throw new SessionRequestError(`${method} answered something that is not a valid result`);
      return parsed.data;
    } catch (error) {
      if (this.#signal.aborted) throw this.#signal.reason;
      if (error instanceof SessionRequestError) throw error;
      if (local.signal.reason instanceof SessionRequestError) throw local.signal.reason;
      if (this.#open.stopped !== undefined)
        throw new SessionRequestError(`the connection was closed: the server ${this.#open.stopped}`);
      throw new SessionRequestError(`${method} failed: ${describe(error)}`);
    } finally {
      this.#current = undefined;
      this.#signal.removeEventListener("abort", forward);
    }
  }

  #note(code: DiagnosticCode, message: string): Diagnostic {
    return diagnostic(code, "warning", `MCP server "${this.#server}": ${message}`);
  }
}

function describe(error: unknown): string {
  return ellipsizeUtf16(errorText(error), 300);
}
