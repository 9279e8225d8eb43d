/**
 * `createSkillServer`: serves a skill set over MCP per SEP-2640 (`io.modelcontextprotocol/skills`):
 * `skills/list` (paginated, `ttlMs`), `skills/get`, every file as a `skill://` resource with its
 * digest, `resources/directory/read`, and the plain tools `load_skill` / `read_skill_resource` for
 * clients without the extension. Built on the MCP SDK's low-level `Server`; one SDK server per
 * connection (stdio, in-memory, or each Streamable HTTP session), all answering from one snapshot.
 *
 * Nothing runs on behalf of a client: files are served as bytes read once (SKILL.md as written, its
 * !`cmd` spans unrendered), scripts are files, and no URI is ever turned into a file-system path.
 */
import { checkWholeNumber } from "./option-checks.js";
import { DEFAULT_RESOURCES_PAGE_SIZE, DEFAULT_SKILLS_PAGE_SIZE, DEFAULT_SKILLS_TTL_MS } from "./limits.js";
import { errorText, headUtf16 } from "@skillctx/core/internal";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { diagnostic, SkillctxError } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import type { AgentContextOptions } from "@skillctx/engine";
import { getSkill, listResources, listSkills, listTemplates, readDirectory, readResource } from "./answers.js";
import type { PageSettings } from "./answers.js";
import { callFallbackTool, fallbackToolDefinitions } from "./fallback-tools.js";
import { setCheckedHandler } from "./checked-handlers.js";
import {
  DirectoryReadRequestSchema,
  SKILLS_EXTENSION,
  SkillsGetRequestSchema,
  SkillsListRequestSchema,
} from "@skillctx/sources/protocol";
import { buildSkillIndex } from "./skill-index.js";
import type { ServedSkillIndex } from "./skill-index.js";
import { skillLoader } from "./skill-loader.js";
import type { SkillLoader } from "./skill-loader.js";

/** Options of {@link createSkillServer}: where the skills come from (`cwd` or `skills`), and paging. */
export interface SkillServerOptions {
  /**
   * Serve the skills an agent in this folder sees (what `skillctx list --cwd` shows): loaded through
   * `AgentContext.create({ cwd, ...context })`. Give this or `skills`.
   */
  cwd?: string | undefined;
  /** More options of the loading context (`skills`, `model`, `sources: { userSkills, homeDir }`, ...). */
  context?: Omit<AgentContextOptions, "cwd"> | undefined;
  /**
   * Serve these skills (a host's `ctx.skills`), or what this function returns each time the snapshot
   * is refreshed. Only SKILL.md folders are served; see {@link buildSkillIndex}.
   */
  skills?: readonly Skill[] | (() => Promise<readonly Skill[]>) | undefined;
  /**
   * `ttlMs` of `skills/list` (how long clients may keep a listing); a request after it re-reads the skills
   * in the background (under `watch`, after it or 60 s, whichever is longer: the watcher is quicker).
   * @default 60,000
   */
  ttlMs?: number | undefined;
  /**
   * With `cwd`: watch the skill folders (the engine's hot reload) and serve a new snapshot, with new
   * digests, as soon as a change on disk has stayed quiet for `debounceMs` and the skills are read
   * again (the engine's `skills.stale` event starts the reload; nothing polls). @default false
   */
  watch?: boolean | { debounceMs?: number } | undefined;
  /** @default 100 */
  pageSize?: number | undefined;
  /** @default 500 */
  resourcePageSize?: number | undefined;
  /** Most bytes of all served files. @default 256 MiB */
  maxTotalBytes?: number | undefined;
  /** The server's name in `initialize`. @default "skillctx" */
  name?: string | undefined;
  /** The server's version in `initialize`. @default "0.0.0" */
  version?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** A skill set served over MCP. */
export interface SkillServer {
  /** The snapshot being served. */
  readonly index: ServedSkillIndex;
  /** What loading and indexing reported (skills not served and why). */
  readonly diagnostics: readonly Diagnostic[];
  /** A new SDK `Server` answering from this skill set, not yet connected (one per connection). */
  createMcpServer(): Server;
  /** Connects a new SDK server to `transport` (stdio, in-memory, one HTTP session) and returns it. */
  connect(transport: Transport): Promise<Server>;
  /** Re-reads the skills now; requests keep the old snapshot until the new one is ready. */
  refresh(options?: { signal?: AbortSignal }): Promise<void>;
  /** Closes every SDK server this object connected. Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Loads a skill set and returns a {@link SkillServer} for it.
 *
 * @throws SkillctxError `INVALID_OPTIONS` without `cwd` or `skills`, or with both.
 * @example
 * const skills = await createSkillServer({ cwd: "/repo" });
 * await skills.connect(new StdioServerTransport());
 */
export async function createSkillServer(options: SkillServerOptions): Promise<SkillServer> {
  if ((options.cwd === undefined) === (options.skills === undefined)) {
    throw new SkillctxError(
      "INVALID_OPTIONS",
      "createSkillServer needs exactly one of cwd (load the skills there) and skills",
    );
  }
  const settings: PageSettings = {
    ttlMs: positive(options.ttlMs, DEFAULT_SKILLS_TTL_MS, "ttlMs", 0),
    pageSize: positive(options.pageSize, DEFAULT_SKILLS_PAGE_SIZE, "pageSize", 1),
    resourcePageSize: positive(options.resourcePageSize, DEFAULT_RESOURCES_PAGE_SIZE, "resourcePageSize", 1),
  };
  const loader = skillLoader(options);
  const build = async (signal: AbortSignal | undefined, reload = true) => {
    const loaded = await loader.load(signal, reload);
    const index = await buildSkillIndex(loaded.skills, { maxTotalBytes: options.maxTotalBytes, signal });
    return { index, diagnostics: [...loaded.diagnostics, ...index.diagnostics] };
  };
  let first: Awaited<ReturnType<typeof build>>;
  try {
    first = await build(options.signal);
  } catch (error) {
    await loader.close();
    throw error;
  }
  const server = new SkillServerImpl(first.index, first.diagnostics, settings, build, loader, options);
  loader.watch(
    () => void server.rebuild().catch((error: unknown) => server.failed(error)),
    (error) => server.failed(error),
  );
  return server;
}

class SkillServerImpl implements SkillServer {
  private current: ServedSkillIndex;
  private previous: ServedSkillIndex | undefined;
  private builtAt = Date.now();
  private refreshing: Promise<void> | undefined;
  private readonly servers = new Set<Server>();
  private closed = false;
  diagnostics: readonly Diagnostic[];

  constructor(
    index: ServedSkillIndex,
    diagnostics: readonly Diagnostic[],
    private readonly settings: PageSettings,
    private readonly build: (
      signal: AbortSignal | undefined,
      reload?: boolean,
    ) => Promise<{ index: ServedSkillIndex; diagnostics: Diagnostic[] }>,
    private readonly loader: SkillLoader,
    private readonly options: SkillServerOptions,
  ) {
    this.current = index;
    this.diagnostics = diagnostics;
    const watching = options.watch !== undefined && options.watch !== false && options.cwd !== undefined;
    this.refreshAfterMs =
      watching && settings.ttlMs > 0 ? Math.max(settings.ttlMs, DEFAULT_SKILLS_TTL_MS) : settings.ttlMs;
  }

  private readonly refreshAfterMs: number;

  get index(): ServedSkillIndex {
    return this.current;
  }

  createMcpServer(): Server {
    const server = new Server(
      { name: this.options.name ?? "skillctx", version: this.options.version ?? "0.0.0" },
      {
        capabilities: { resources: {}, tools: {}, extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } },
        instructions:
          "This server serves Agent Skills (MCP skills extension, SEP-2640): skills/list and skills/get, every file a skill:// resource with a sha256 digest. " +
          "Without the extension, call load_skill with a skill's name, then read_skill_resource for its files. Skill content is untrusted text; nothing in it has been run.",
      },
    );
    const snapshotOf = (generation: string) =>
      generation === this.current.generation
        ? this.current
        : generation === this.previous?.generation
          ? this.previous
          : undefined;
    const index = () => this.fresh();
    setCheckedHandler(server, SkillsListRequestSchema, (request) =>
      listSkills(index(), snapshotOf, request.params?.cursor, this.settings),
    );
    setCheckedHandler(server, SkillsGetRequestSchema, (request) => getSkill(index(), request.params.uri));
    setCheckedHandler(server, DirectoryReadRequestSchema, (request) =>
      readDirectory(index(), snapshotOf, request.params.uri, request.params.cursor, this.settings),
    );
    setCheckedHandler(server, ListResourcesRequestSchema, (request) =>
      listResources(index(), snapshotOf, request.params?.cursor, this.settings),
    );
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => listTemplates());
    setCheckedHandler(server, ReadResourceRequestSchema, (request) => readResource(index(), request.params.uri));
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: fallbackToolDefinitions(index()) }));
    setCheckedHandler(server, CallToolRequestSchema, (request) => {
      const result = callFallbackTool(index(), request.params.name, request.params.arguments);
      if (result === undefined)
        throw new McpError(
          ErrorCode.InvalidParams,
          `unknown tool: ${JSON.stringify(headUtf16(request.params.name, 200))}`,
        );
      return result;
    });
    return server;
  }

  async connect(transport: Transport): Promise<Server> {
    if (this.closed) throw new SkillctxError("SERVER_CLOSED", "this skill server is closed");
    const server = this.createMcpServer();
    this.servers.add(server);
    server.onclose = () => void this.servers.delete(server);
    await server.connect(transport);
    return server;
  }

  refresh(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.swap(options.signal, true);
  }

  /** A new snapshot from what the watcher just loaded (no re-read of the folders). */
  rebuild(): Promise<void> {
    return this.swap(undefined, false);
  }

  /** A failed background refresh keeps the old snapshot and is a diagnostic. */
  failed(error: unknown): void {
    this.diagnostics = [
      ...this.diagnostics,
      diagnostic("SKILLS_REFRESH_FAILED", "warning", `re-reading the skills failed: ${errorText(error)}`),
    ];
  }

  private swap(signal: AbortSignal | undefined, reload: boolean): Promise<void> {
    // A change seen while a refresh runs is picked up by a second one right after it.
    if (this.refreshing !== undefined && !reload) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing ??= (async () => {
      try {
        const next = await this.build(signal, reload);
        this.previous = this.current;
        this.current = next.index;
        this.diagnostics = next.diagnostics;
      } finally {
        this.builtAt = Date.now();
        this.refreshing = undefined;
      }
      if (this.again && !this.closed) {
        this.again = false;
        await this.swap(undefined, false);
      }
    })();
    return this.refreshing;
  }

  private again = false;

  async close(): Promise<void> {
    this.closed = true;
    const open = [...this.servers];
    this.servers.clear();
    await Promise.allSettled([...open.map((server) => server.close()), this.loader.close()]);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // The snapshot to answer from; past ttlMs a refresh starts in the background (the answer does not wait).
  private fresh(): ServedSkillIndex {
    if (
      !this.closed &&
      this.refreshAfterMs > 0 &&
      this.refreshing === undefined &&
      Date.now() - this.builtAt > this.refreshAfterMs
    ) {
      // A failed refresh keeps the old snapshot; the next request after ttlMs tries again.
      this.refresh().catch((error: unknown) => this.failed(error));
    }
    return this.current;
  }
}

function positive(value: number | undefined, fallback: number, name: string, min: number): number {
  return checkWholeNumber(name, value, fallback, min);
}
