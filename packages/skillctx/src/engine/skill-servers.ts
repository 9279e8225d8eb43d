import type { Diagnostic, Skill } from "@skillctx/core";
import { diagnostic } from "@skillctx/core";
import { createMcpBridge, serversFromSkill } from "@skillctx/mcp-bridge";
import type { DeclaredServer, McpBridge } from "@skillctx/mcp-bridge";
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
  /** Per tool call. @default 60000 */
  callTimeoutMs?: number;
  /** Extra environment for every server (beside the allowlist and the server's own `env`). */
  env?: Record<string, string>;
}

/**
 * The MCP servers declared by the skills of a context: servers of always-on skills start at once
 * (in parallel), the others when their skill activates. Untrusted scopes never start a server.
 */
export class SkillServers implements ToolProvider {
  private readonly started = new Set<string>();

  private constructor(
    private readonly bridge: McpBridge,
    private readonly bySkill: Map<string, string[]>,
  ) {}

  static async create(
    skills: SkillSet,
    options: { trust: TrustOptions | undefined; settings: McpSettings | undefined; signal?: AbortSignal | undefined },
  ): Promise<{ servers: SkillServers; diagnostics: Diagnostic[] }> {
    const diagnostics: Diagnostic[] = [];
    const declared: DeclaredServer[] = [];
    const bySkill = new Map<string, string[]>();
    if (options.settings?.enabled !== false) {
      for (const skill of skills.skills) {
        if (skill.mcpServers === undefined && skill.source.format !== "skill-md") continue;
        const found = await serversFromSkill(skill, { trusted: isTrusted(skill, options.trust) });
        diagnostics.push(...found.diagnostics);
        for (const server of found.servers) {
          const owner = declared.find((d) => d.name === server.name);
          if (owner !== undefined) {
            diagnostics.push(
              diagnostic("MCP_SERVER_NAME_CLASH", "warning", `MCP server "${server.name}" of skill "${skill.name}" is shadowed by the one of skill "${owner.skill ?? "?"}"`, {
                path: server.path,
              }),
            );
            continue;
          }
          declared.push(server);
          bySkill.set(skill.name, [...(bySkill.get(skill.name) ?? []), server.name]);
        }
      }
    }
    const settings = options.settings ?? {};
    const bridge = await createMcpBridge(declared, {
      ...(settings.startupTimeoutMs !== undefined && { startupTimeoutMs: settings.startupTimeoutMs }),
      ...(settings.callTimeoutMs !== undefined && { callTimeoutMs: settings.callTimeoutMs }),
      ...(settings.env !== undefined && { env: settings.env }),
    });
    const servers = new SkillServers(bridge, bySkill);
    diagnostics.push(...(await servers.activate(skills.guidance, options.signal)));
    return { servers, diagnostics };
  }

  /** Starts the servers of `skills` that are not started yet; failures come back as diagnostics. */
  async activate(skills: readonly Skill[], signal?: AbortSignal): Promise<Diagnostic[]> {
    const names = skills.flatMap((skill) => this.bySkill.get(skill.name) ?? []).filter((name) => !this.started.has(name));
    if (names.length === 0) return [];
    for (const name of names) this.started.add(name);
    return this.bridge.start(names, signal === undefined ? {} : { signal });
  }

  definitions(): ToolDefinition[] {
    return this.bridge.tools().map((tool) => ({
      name: tool.name,
      description: tool.description ?? `${tool.tool} (MCP server ${tool.server})`,
      inputSchema: tool.inputSchema,
    }));
  }

  owns(name: string): boolean {
    // Every mcp__ name goes to the bridge, which names a dead or unknown server in its answer.
    return name.startsWith("mcp__");
  }

  call(name: string, args: unknown, options: { signal?: AbortSignal | undefined }): Promise<ToolResult> {
    return this.bridge.callTool(name, args, options.signal === undefined ? {} : { signal: options.signal });
  }

  close(): Promise<void> {
    return this.bridge.close();
  }
}
