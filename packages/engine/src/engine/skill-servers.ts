import type { Diagnostic, DiagnosticSink, Skill, Trust } from "@skillctx/core";
import { diagnostic, SkillctxError } from "@skillctx/core";
import { createMcpBridge, serversFromProject, serversFromSkills } from "@skillctx/mcp-bridge";
import { projectRoot } from "@skillctx/core/internal";
import type { DeclaredServer, McpBridge, McpBridgeOptions, McpServerState, McpTool } from "@skillctx/mcp-bridge";
import type { EventSink } from "../events/types.js";
import type { SkillSet, ToolDefinition, ToolProvider, ToolResult } from "../context-types.js";

/** Caps on what an MCP server may send; see `McpBridgeOptions` for each default. */
export type McpLimits = Pick<
  McpBridgeOptions,
  | "maxMessageBytes"
  | "maxToolPages"
  | "maxToolsPerServer"
  | "maxToolListBytes"
  | "maxMalformedMessages"
  | "maxResultChars"
>;

/** MCP settings of an AgentContext. */
export interface McpSettings {
  /** Start the MCP servers that skills declare. @default true */
  enabled?: boolean;
  /** Per server start-up (handshake and tool listing). @default 30000 */
  startupTimeoutMs?: number;
  /** Per tool call. @default 60000 */
  callTimeoutMs?: number;
  /**
   * Extra environment for every server (beside the allowlisted PATH, HOME, LANG, LC_*, TERM, USER, SHELL,
   * TMPDIR and the server's own `env`). `${VAR}` in `mcp_tools` and `.mcp.json` may name these too.
   * @default {}
   */
  env?: Record<string, string>;
  /**
   * Variables `${VAR}` in `mcp_tools` and `.mcp.json` may name, besides the allowlisted environment and
   * `env` (these win). The host's other variables are never expanded: pass a token here on purpose.
   * @default {}
   */
  vars?: Record<string, string>;
  /** Caps on what a server may send (message size, tool list, malformed messages, result length). @default the bridge's defaults */
  limits?: McpLimits;
}

/** How long a skill's servers are offered: for the rest of the conversation, or while the model has the skill loaded. */
type Lease = "conversation" | "loaded";

/**
 * The MCP servers declared by the skills of a context, as one tool provider.
 *
 * Servers start when their skill activates, in parallel: guidance (always-on) skills when the skill set
 * loads, keyword, task and path skills when they fire ({@link activate}), a skill the model loads when it
 * loads it ({@link load}). A server's tools are *offered* (listed by {@link definitions}, callable) while
 * its skill holds a lease: guidance and fired skills for the rest of the conversation, a loaded skill
 * until {@link deactivate} (unload). A withdrawn server keeps running for reuse until {@link close}.
 * Untrusted scopes never start a server. {@link close} is terminal: nothing starts after it.
 */
export class SkillServerPool implements ToolProvider {
  private bridge: McpBridge | undefined;
  private bySkill = new Map<string, string[]>();
  private started = new Set<string>();
  private starting: Promise<void>[] = [];
  /** Skills whose servers are offered, and until when; kept across reloads. */
  private readonly leases = new Map<string, Lease>();
  private closed = false;
  private readonly definitionOf = new WeakMap<McpTool, ToolDefinition>();
  /** Where the project's own MCP configuration (`.mcp.json`, `.cursor/mcp.json`) is read; unset: none is. */
  private project: { cwd: string; homeDir?: string | undefined } | undefined;
  /** Servers of the project's configuration: started at reload, offered for the whole conversation. */
  private projectServers: string[] = [];
  /** Each server's state when last looked at (`mcp.server.*` events are the changes between looks). */
  private known = new Map<string, McpServerState>();

  constructor(
    private readonly options: {
      trust: () => Trust | undefined;
      settings: McpSettings | undefined;
      report: DiagnosticSink;
      /** Receives `mcp.server.started`, `stopped` and `crashed`. */
      events?: EventSink;
    },
  ) {}

  /**
   * Reads the project's own MCP configuration at each {@link reload}: Claude Code's `.mcp.json` and
   * Cursor's `.cursor/mcp.json` at the project root of `cwd`. Their servers start at reload when the
   * project scope is trusted and are refused with `MCP_SERVER_UNTRUSTED` otherwise; they are offered
   * for the whole conversation, under the same names, bridge and caps as skill servers (a skill server
   * of the same name is shadowed by them).
   */
  useProjectConfig(cwd: string, homeDir?: string): void {
    this.project = { cwd, homeDir };
  }

  /**
   * Replaces the servers with those of `skills`; starts those of guidance and of the `active` skills
   * (offered for the conversation), and of `loaded` (offered until {@link deactivate}). Leases held
   * before the reload are kept. Does nothing after {@link close}.
   */
  async reload(skills: SkillSet, active: readonly string[], signal?: AbortSignal, loaded?: string): Promise<void> {
    if (this.closed) return;
    await this.stopServers();
    if (this.closed || this.options.settings?.enabled === false) return;
    const declared = await this.declare(skills);
    if (declared.length === 0 || this.closed) return;
    const settings = this.options.settings ?? {};
    let bridge: McpBridge;
    try {
      bridge = await createMcpBridge(declared, {
        ...settings.limits,
        ...(settings.startupTimeoutMs !== undefined && { startupTimeoutMs: settings.startupTimeoutMs }),
        ...(settings.callTimeoutMs !== undefined && { callTimeoutMs: settings.callTimeoutMs }),
        ...(settings.env !== undefined && { env: settings.env }),
        onToolsChanged: () => this.noteServers(),
      });
    } catch (error) {
      // The MCP SDK is an optional peer: without it no server starts. That is an error only when a server
      // would start (trusted and enabled); untrusted ones are told as the bridge tells them, SDK or not.
      if (!SkillctxError.isInstance(error) || error.code !== "MCP_SDK_MISSING") throw error;
      for (const d of sdkMissingDiagnostics(declared, this.projectServers, error.message)) this.options.report(d);
      return;
    }
    if (this.closed) return bridge.close(); // closed while declaring: start nothing
    this.bridge = bridge;
    const byName = (names: readonly string[]) => names.flatMap((name) => skills.byName.get(name) ?? []);
    if (this.projectServers.length > 0)
      this.starting.push(this.afterStart(bridge.start(this.projectServers, signal === undefined ? {} : { signal })));
    const held = byName([...this.leases.keys()]);
    for (const skill of held) this.startServers([skill], this.leases.get(skill.name)!, signal);
    this.activate([...skills.guidance, ...byName(active.filter((name) => name !== loaded))], signal);
    if (loaded !== undefined) for (const skill of byName([loaded])) this.load(skill, signal);
    await this.settled();
  }

  /** Offers the servers of `skills` for the rest of the conversation (guidance, fired skills), starting them in the background (see {@link settled}). */
  activate(skills: readonly Skill[], signal?: AbortSignal): void {
    this.startServers(skills, "conversation", signal);
  }

  /** Offers the servers of a skill the model loaded, until {@link deactivate}; a skill already offered for the conversation stays so. */
  load(skill: Skill, signal?: AbortSignal): void {
    this.startServers([skill], "loaded", signal);
  }

  /**
   * Withdraws the tools of a skill the model unloaded: they leave {@link definitions} and calls to them
   * are refused. The servers keep running (a later load reuses them) until {@link close}. Servers offered
   * for the conversation (guidance, fired skills) are not affected.
   */
  deactivate(skillName: string): void {
    if (this.leases.get(skillName) === "loaded") this.leases.delete(skillName);
  }

  /** Waits for every start in progress, so their tools are listed. */
  async settled(): Promise<void> {
    while (this.starting.length > 0) await Promise.all(this.starting.splice(0));
  }

  /** The tools of the servers currently offered, sorted by name (code point). */
  definitions(): ToolDefinition[] {
    const offered = this.offeredServers();
    return this.offeredTools(offered).map((tool) => {
      // The same definition object while the bridge's tool is unchanged: callers compare by identity.
      let definition = this.definitionOf.get(tool);
      if (definition === undefined) {
        definition = {
          name: tool.name,
          description: tool.description ?? `${tool.tool} (MCP server ${tool.server})`,
          inputSchema: tool.inputSchema,
        };
        this.definitionOf.set(tool, definition);
      }
      return definition;
    });
  }

  owns(name: string): boolean {
    // Every mcp__ name goes to the bridge, which names a dead or unknown server in its answer.
    return this.bridge !== undefined && name.startsWith("mcp__");
  }

  async call(name: string, args: unknown, options: { signal?: AbortSignal | undefined }): Promise<ToolResult> {
    if (this.bridge === undefined)
      return { content: `Unknown tool "${name}": no MCP server is configured.`, isError: true };
    const tool = this.bridge.tools().find((t) => t.name === name);
    if (tool !== undefined && !this.offeredServers().has(tool.server)) {
      const owner = tool.skill === undefined ? "" : ` of skill "${tool.skill}"`;
      return {
        content: `MCP tool "${name}"${owner} is not available: the skill is not active. Load it again to use its tools.`,
        isError: true,
      };
    }
    // A server that exited since the last look is restarted by this call: its crash is told before the restart.
    this.noteServers();
    try {
      return await this.bridge.callTool(name, args, options.signal === undefined ? {} : { signal: options.signal });
    } finally {
      this.noteServers();
    }
  }

  /** The skill whose server offers tool `name` (an `mcp__` name), if any. */
  skillOf(name: string): string | undefined {
    return this.bridge?.tools().find((t) => t.name === name)?.skill;
  }

  /** Stops every server; terminal (a later reload or activation starts nothing); calling it twice is harmless. */
  async close(): Promise<void> {
    this.closed = true;
    this.leases.clear();
    await this.stopServers();
  }

  private startServers(skills: readonly Skill[], lease: Lease, signal: AbortSignal | undefined): void {
    if (this.closed) return;
    for (const skill of skills) {
      if (lease === "conversation" || !this.leases.has(skill.name)) this.leases.set(skill.name, lease);
    }
    const bridge = this.bridge;
    if (bridge === undefined) return;
    const names = skills
      .flatMap((skill) => this.bySkill.get(skill.name) ?? [])
      .filter((name) => !this.started.has(name));
    if (names.length === 0) return;
    for (const name of names) this.started.add(name);
    this.starting.push(this.afterStart(bridge.start(names, signal === undefined ? {} : { signal })));
  }

  private offeredServers(): Set<string> {
    const offered = new Set<string>(this.projectServers);
    for (const skill of this.leases.keys()) for (const server of this.bySkill.get(skill) ?? []) offered.add(server);
    return offered;
  }

  private offeredTools(offered: Set<string>): McpTool[] {
    return (this.bridge?.tools() ?? []).filter((tool) => offered.has(tool.server));
  }

  private async stopServers(): Promise<void> {
    const bridge = this.bridge;
    this.noteServers();
    this.bridge = undefined;
    this.bySkill = new Map();
    this.started = new Set();
    this.projectServers = [];
    await Promise.allSettled(this.starting.splice(0));
    await bridge?.close();
    this.noteStopped(bridge);
  }

  private afterStart(start: Promise<Diagnostic[]>): Promise<void> {
    return start.then((found) => {
      for (const d of found) this.options.report(d);
      this.noteServers();
    });
  }

  // Compares each server's state with the last look and emits the changes: → running is `started`,
  // running → exited or failed is `crashed` (the bridge's diagnostic says why), running → closed is
  // `stopped`. The bridge reports no state changes itself, so the pool looks after each start, when the
  // bridge's tools change (a start, a refresh, a death it will not restart), around each call and at stop.
  private noteServers(): void {
    const bridge = this.bridge;
    if (bridge === undefined) return;
    const events = this.options.events;
    for (const status of bridge.servers()) {
      const before = this.known.get(status.name);
      if (before === status.state) continue;
      this.known.set(status.name, status.state);
      if (events === undefined) continue;
      const base = { server: status.name, ...(status.skill !== undefined && { skill: status.skill }) };
      if (status.state === "running" && events.wants("mcp.server.started")) {
        events.emit({ type: "mcp.server.started", ...base });
      } else if (
        before === "running" &&
        (status.state === "exited" || status.state === "failed") &&
        events.wants("mcp.server.crashed")
      ) {
        events.emit({ type: "mcp.server.crashed", ...base, reason: crashReason(bridge, status.name) ?? status.state });
      } else if (before === "running" && status.state === "closed" && events.wants("mcp.server.stopped")) {
        events.emit({ type: "mcp.server.stopped", ...base, reason: "closed" });
      }
    }
  }

  // After the bridge closed (reload, close): every server seen running is stopped.
  private noteStopped(bridge: McpBridge | undefined): void {
    const events = this.options.events;
    const known = this.known;
    this.known = new Map();
    if (bridge === undefined || events === undefined || !events.wants("mcp.server.stopped")) return;
    const skills = new Map(bridge.servers().map((status) => [status.name, status.skill]));
    for (const [server, state] of known) {
      if (state !== "running") continue;
      const skill = skills.get(server);
      events.emit({
        type: "mcp.server.stopped",
        server,
        ...(skill !== undefined && { skill }),
        reason: this.closed ? "closed" : "reload",
      });
    }
  }

  private async declare(skills: SkillSet): Promise<DeclaredServer[]> {
    const declared: DeclaredServer[] = [];
    const diagnostics: Diagnostic[] = [];
    const settings = this.options.settings ?? {};
    const vars = { ...settings.env, ...settings.vars };
    const trust = this.options.trust();
    if (this.project !== undefined) {
      const root = projectRoot(
        this.project.cwd,
        this.project.homeDir === undefined ? {} : { homeDir: this.project.homeDir },
      );
      const found = await serversFromProject(root, { trust, vars });
      diagnostics.push(...found.diagnostics);
      declared.push(...found.servers);
      this.projectServers = found.servers.map((server) => server.name);
    }
    for (const found of await serversFromSkills(skills.skills, { trust, vars })) {
      const skill = found.skill;
      diagnostics.push(...found.diagnostics);
      for (const server of found.servers) {
        const owner = declared.find((d) => d.name === server.name);
        if (owner !== undefined) {
          const by =
            owner.skill === undefined
              ? `the project's ${owner.path ?? "MCP configuration"}`
              : `the one of skill "${owner.skill}"`;
          const message = `MCP server "${server.name}" of skill "${skill.name}" is shadowed by ${by}`;
          diagnostics.push(diagnostic("MCP_SERVER_NAME_CLASH", "warning", message, { path: server.path }));
          continue;
        }
        declared.push(server);
        this.bySkill.set(skill.name, [...(this.bySkill.get(skill.name) ?? []), server.name]);
      }
    }
    for (const d of diagnostics) this.options.report(d);
    return declared;
  }
}

// The newest diagnostic the bridge recorded about server `name` (an exit, an over-size message, ...).
function crashReason(bridge: McpBridge, name: string): string | undefined {
  const mention = `"${name}"`;
  const found = bridge.diagnostics.findLast((d) => d.message.includes(mention));
  return found?.message;
}

/**
 * What a context says when the MCP SDK is missing: one `MCP_SDK_MISSING` error naming the servers that
 * would start (trusted, enabled), and for the project's untrusted servers the `MCP_SERVER_UNTRUSTED` note
 * the bridge gives when the SDK is there (they would not start either way, so they need nothing).
 */
export function sdkMissingDiagnostics(
  declared: readonly DeclaredServer[],
  projectServers: readonly string[],
  why: string,
): Diagnostic[] {
  const found: Diagnostic[] = [];
  const wouldStart = declared.filter((server) => server.trusted && server.config.enabled !== false);
  for (const server of declared) {
    if (server.trusted || !projectServers.includes(server.name)) continue;
    found.push(
      diagnostic(
        "MCP_SERVER_UNTRUSTED",
        "warning",
        `MCP server "${server.name}" not started: it is declared by the project's MCP configuration (trust the project scope to allow it)`,
        { path: server.path },
      ),
    );
  }
  if (wouldStart.length > 0) {
    const names = wouldStart.map((server) => server.name).join(", ");
    found.push(diagnostic("MCP_SDK_MISSING", "error", `MCP servers not started (${names}): ${why}`));
  }
  return found;
}
