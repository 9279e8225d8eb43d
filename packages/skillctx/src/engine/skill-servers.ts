import type { Diagnostic, Skill } from "@skillctx/core";
import { diagnostic } from "@skillctx/core";
import { createMcpBridge, serversFromSkill } from "@skillctx/mcp-bridge";
import type { DeclaredServer, McpBridge, McpTool } from "@skillctx/mcp-bridge";
import type { ToolDefinition } from "./agent-context.js";
import type { ToolProvider, ToolResult } from "../tools/tool-provider.js";
import type { SkillSet } from "./skill-set.js";
import type { TrustOptions } from "./trust.js";
import { isTrusted } from "./trust.js";

/** MCP settings of an AgentContext. */
export interface McpSettings {
  /** Start the MCP servers that skills declare. @default true */
  enabled?: boolean;
  /** Per server start-up (handshake and tool listing). @default 30000 */
  startupTimeoutMs?: number;
  /** Per tool call. */
  callTimeoutMs?: number;
  /** Extra environment for every server (beside the allowlist and the server's own `env`). */
  env?: Record<string, string>;
}

/**
 * The MCP servers declared by the skills of a context, as one tool provider. Servers of always-on
 * skills start when the skill set loads (in parallel); the others when their skill activates
 * (keyword, task or path trigger, or a load by the model). Untrusted scopes never start a server.
 */
export class SkillServerPool implements ToolProvider {
  private bridge: McpBridge | undefined;
  private bySkill = new Map<string, string[]>();
  private started = new Set<string>();
  private starting: Promise<void>[] = [];
  private readonly definitionOf = new WeakMap<McpTool, ToolDefinition>();

  constructor(
    private readonly options: {
      trust: () => TrustOptions | undefined;
      settings: McpSettings | undefined;
      report: (diagnostics: Diagnostic[]) => void;
    },
  ) {}

  /** Replaces the servers with those of `skills`; starts those of guidance and of `active` skills. */
  async reload(skills: SkillSet, active: readonly string[], signal?: AbortSignal): Promise<void> {
    await this.close();
    if (this.options.settings?.enabled === false) return;
    const declared = await this.declare(skills);
    if (declared.length === 0) return;
    const settings = this.options.settings ?? {};
    this.bridge = await createMcpBridge(declared, {
      ...(settings.startupTimeoutMs !== undefined && { startupTimeoutMs: settings.startupTimeoutMs }),
      ...(settings.callTimeoutMs !== undefined && { callTimeoutMs: settings.callTimeoutMs }),
      ...(settings.env !== undefined && { env: settings.env }),
    });
    const activeSkills = active.flatMap((name) => skills.byName.get(name) ?? []);
    this.activate([...skills.guidance, ...activeSkills], signal);
    await this.settled();
  }

  /** Starts the servers of `skills` that have not started yet, in the background (see {@link settled}). */
  activate(skills: readonly Skill[], signal?: AbortSignal): void {
    const bridge = this.bridge;
    if (bridge === undefined) return;
    const names = skills.flatMap((skill) => this.bySkill.get(skill.name) ?? []).filter((name) => !this.started.has(name));
    if (names.length === 0) return;
    for (const name of names) this.started.add(name);
    this.starting.push(bridge.start(names, signal === undefined ? {} : { signal }).then(this.options.report));
  }

  /** Waits for every start in progress, so their tools are listed. */
  async settled(): Promise<void> {
    while (this.starting.length > 0) await Promise.all(this.starting.splice(0));
  }

  definitions(): ToolDefinition[] {
    return (this.bridge?.tools() ?? []).map((tool) => {
      // The same definition object while the bridge's tool is unchanged: callers compare by identity.
      let definition = this.definitionOf.get(tool);
      if (definition === undefined) {
        definition = { name: tool.name, description: tool.description ?? `${tool.tool} (MCP server ${tool.server})`, inputSchema: tool.inputSchema };
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
    if (this.bridge === undefined) return { content: `Unknown tool "${name}": no MCP server is configured.`, isError: true };
    return this.bridge.callTool(name, args, options.signal === undefined ? {} : { signal: options.signal });
  }

  /** Stops every server; calling it twice is harmless. */
  async close(): Promise<void> {
    const bridge = this.bridge;
    this.bridge = undefined;
    this.bySkill = new Map();
    this.started = new Set();
    await Promise.allSettled(this.starting.splice(0));
    await bridge?.close();
  }

  private async declare(skills: SkillSet): Promise<DeclaredServer[]> {
    const declared: DeclaredServer[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const skill of skills.skills) {
      if (skill.mcpServers === undefined && skill.source.format !== "skill-md") continue;
      const found = await serversFromSkill(skill, { trusted: isTrusted(skill, this.options.trust()) });
      diagnostics.push(...found.diagnostics);
      for (const server of found.servers) {
        const owner = declared.find((d) => d.name === server.name);
        if (owner !== undefined) {
          const message = `MCP server "${server.name}" of skill "${skill.name}" is shadowed by the one of skill "${owner.skill ?? "?"}"`;
          diagnostics.push(diagnostic("MCP_SERVER_NAME_CLASH", "warning", message, { path: server.path }));
          continue;
        }
        declared.push(server);
        this.bySkill.set(skill.name, [...(this.bySkill.get(skill.name) ?? []), server.name]);
      }
    }
    this.options.report(diagnostics);
    return declared;
  }
}
