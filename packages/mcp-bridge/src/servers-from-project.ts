import * as path from "node:path";
import { isScopeTrusted } from "@skillctx/core";
import type { Diagnostic, Trust } from "@skillctx/core";
import { MCP_MAX_CONFIG_BYTES } from "./limits.js";
import { processEnv } from "@skillctx/process";
import { declareBlock, readJson } from "./servers-from-skill.js";
import type { DeclaredServer } from "./types.js";

/** The project MCP configuration files, relative to the project root, in precedence order. */
export const PROJECT_MCP_FILES: readonly string[] = [".mcp.json", path.join(".cursor", "mcp.json")];

/** Options for {@link serversFromProject}. */
export interface ServersFromProjectOptions {
  /** The servers may start only with `project: true` (they are repository content). @default untrusted */
  trust?: Trust | undefined;
  /** Variables `${VAR}` may name besides the allowlisted environment (these win). @default {} */
  vars?: Record<string, string> | undefined;
  /** Largest configuration file, and largest server entry after expansion, in bytes. @default 1 MiB */
  maxConfigBytes?: number | undefined;
}

/**
 * Reads the MCP servers a repository declares for the whole project: Claude Code's `.mcp.json` and
 * Cursor's `.cursor/mcp.json` at the project root (`{ "mcpServers": {...} }`), read through the one file
 * reader and contained in `root` (a symlink out of the project is refused). Names, `${VAR}` expansion,
 * caps and validation are those of skill servers; the servers have no owning skill and are trusted
 * only when `trust.project` is true (otherwise they are declared untrusted: the bridge refuses to
 * start them with `MCP_SERVER_UNTRUSTED`). The first declaration of a name wins (`.mcp.json` first).
 *
 * @example
 * const { servers, diagnostics } = await serversFromProject(projectRoot, { trust: { project: true } });
 */
export async function serversFromProject(
  root: string,
  options: ServersFromProjectOptions = {},
): Promise<{ servers: DeclaredServer[]; diagnostics: Diagnostic[] }> {
  const env = processEnv(options.vars);
  const maxBytes = options.maxConfigBytes ?? MCP_MAX_CONFIG_BYTES;
  const trusted = isScopeTrusted("project", options.trust);
  const diagnostics: Diagnostic[] = [];
  const servers: DeclaredServer[] = [];
  for (const relative of PROJECT_MCP_FILES) {
    const file = path.join(root, relative);
    const read = await readJson(file, { maxBytes, root });
    if (read.diagnostic !== undefined) diagnostics.push(read.diagnostic);
    if (!read.found) continue;
    declareBlock(
      { raw: read.value, path: file },
      { skill: undefined, trusted, env, fixed: {}, baseDir: root, maxBytes, servers, diagnostics },
    );
  }
  return { servers, diagnostics };
}
