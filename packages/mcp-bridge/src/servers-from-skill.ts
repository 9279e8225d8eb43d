import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { diagnostic, type Diagnostic, type Skill } from "@skillctx/core";
import { parseServerConfig } from "./config-schema.js";
import { expandVars } from "./expand-vars.js";
import type { DeclaredServer } from "./types.js";

/** Options for {@link serversFromSkill}. */
export interface ServersFromSkillOptions {
  /** Variables for `${VAR}` references. @default process.env */
  env?: Record<string, string | undefined>;
  /**
   * Whether the servers may start. @default `true` unless the skill comes from a
   * project (repository) source, which is untrusted input.
   */
  trusted?: boolean;
}

/** File name of the server list in an Agent Skills folder. */
export const MCP_JSON = ".mcp.json";

/**
 * Reads the MCP servers a skill declares: `skill.mcpServers` (legacy frontmatter `mcp_tools`,
 * either `{ mcpServers: {...} }` or a bare map) and, for SKILL.md skills, `<skill.dir>/.mcp.json`
 * (`{ "mcpServers": {...} }`). `${SKILL_ROOT}`, `${VAR}` and `${VAR:-default}` are expanded in
 * keys and values; an unresolved reference stays as written and is reported. A relative `cwd`
 * resolves against the skill's folder. Broken entries become diagnostics; the others are kept.
 * The first declaration of a name wins.
 *
 * @example
 * const { servers, diagnostics } = await serversFromSkill(skill, { trusted: true });
 */
export async function serversFromSkill(
  skill: Skill,
  options: ServersFromSkillOptions = {},
): Promise<{ servers: DeclaredServer[]; diagnostics: Diagnostic[] }> {
  const env = options.env ?? process.env;
  const trusted = options.trusted ?? skill.source.scope !== "project";
  const diagnostics: Diagnostic[] = [];
  const servers: DeclaredServer[] = [];

  const blocks: { raw: unknown; path: string | undefined }[] = [];
  if (skill.mcpServers !== undefined) blocks.push({ raw: skill.mcpServers, path: skill.source.path });
  // Only an Agent Skills folder belongs to one skill; a legacy skill's folder holds many.
  if (skill.source.format === "skill-md" && skill.dir !== undefined) {
    const file = path.join(skill.dir, MCP_JSON);
    const read = await readJson(file);
    if (read.diagnostic !== undefined) diagnostics.push(read.diagnostic);
    if (read.found) blocks.push({ raw: read.value, path: file });
  }

  for (const block of blocks) {
    const where = { path: block.path };
    const map = serverMap(block.raw, where, diagnostics);
    for (const [rawName, rawConfig] of Object.entries(map)) {
      const expanded = expandVars({ [rawName]: rawConfig }, { env, fixed: { SKILL_ROOT: skill.dir } });
      const [name, entry] = Object.entries(expanded.value as Record<string, unknown>)[0]!;
      if (expanded.unresolved.length > 0) {
        const names = expanded.unresolved.map((v) => "${" + v + "}").join(", ");
        diagnostics.push(
          diagnostic("MCP_CONFIG_UNRESOLVED_VAR", "warning", `MCP server "${name}": ${names} not set; left as written`, where),
        );
      }
      const parsed = parseServerConfig(name, entry, where);
      diagnostics.push(...parsed.diagnostics);
      if (parsed.config === undefined) continue;
      if (servers.some((s) => s.name === name)) {
        diagnostics.push(
          diagnostic("MCP_SERVER_DUPLICATE", "warning", `MCP server "${name}" is declared twice by skill "${skill.name}"; the first is kept`, where),
        );
        continue;
      }
      const config = parsed.config;
      if (config.type === "stdio" && config.cwd !== undefined && skill.dir !== undefined) {
        config.cwd = path.resolve(skill.dir, config.cwd);
      }
      const server: DeclaredServer = { name, config, skill: skill.name, trusted };
      if (block.path !== undefined) server.path = block.path;
      servers.push(server);
    }
  }
  return { servers, diagnostics };
}

// `{ mcpServers: {...} }` or a bare map of servers.
function serverMap(raw: unknown, where: { path: string | undefined }, diagnostics: Diagnostic[]): Record<string, unknown> {
  if (!isRecord(raw)) {
    diagnostics.push(diagnostic("MCP_CONFIG_INVALID", "error", "MCP servers must be a map of server name to settings", where));
    return {};
  }
  if (!("mcpServers" in raw)) return raw;
  const { mcpServers, ...rest } = raw;
  for (const key of Object.keys(rest)) {
    diagnostics.push(diagnostic("MCP_CONFIG_UNKNOWN_KEY", "warning", `unknown key "${key}" beside "mcpServers" ignored`, where));
  }
  if (!isRecord(mcpServers)) {
    diagnostics.push(diagnostic("MCP_CONFIG_INVALID", "error", '"mcpServers" must be a map of server name to settings', where));
    return {};
  }
  return mcpServers;
}

async function readJson(file: string): Promise<{ found: boolean; value?: unknown; diagnostic?: Diagnostic }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { found: false };
    return { found: false, diagnostic: diagnostic("MCP_CONFIG_READ", "error", `cannot read ${MCP_JSON}: ${(error as Error).message}`, { path: file }) };
  }
  try {
    return { found: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    const line = position === undefined ? undefined : text.slice(0, Number(position)).split("\n").length;
    return { found: false, diagnostic: diagnostic("MCP_CONFIG_INVALID", "error", `${MCP_JSON} is not valid JSON: ${message}`, { path: file, line }) };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
