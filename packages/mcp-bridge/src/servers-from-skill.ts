import { statSync } from "node:fs";
import * as path from "node:path";
import { diagnostic, isScopeTrusted, type Diagnostic, type Skill, type Trust } from "@skillctx/core";
import { childPath, equalValues, readTextFileSync } from "@skillctx/core/internal";
import { MCP_MAX_CONFIG_BYTES } from "./limits.js";
import { headUtf16, safeParseJson } from "@skillctx/core/internal";
import { processEnv } from "@skillctx/process";
import { checkServerName, parseServerConfig } from "./config-schema.js";
import { expandVars, MAX_EXPAND_DEPTH } from "./expand-vars.js";
import { formatBytes } from "./format-bytes.js";
import type { DeclaredServer } from "./types.js";

/** Options for {@link serversFromSkill}. */
export interface ServersFromSkillOptions {
  /**
   * Which scopes the caller trusts; the servers may start when `isScopeTrusted(skill.source.scope, trust)`.
   * @default project skills untrusted, user and programmatic skills trusted
   */
  trust?: Trust | undefined;
  /**
   * Variables `${VAR}` may name besides the allowlisted environment (PATH, HOME, LANG, LC_*, TERM,
   * USER, SHELL, TMPDIR, from `processEnv()` of `@skillctx/process`); these win. Nothing else of the
   * host's environment is ever expanded: pass an API key here on purpose, or in the server's `env`.
   * @default {}
   */
  vars?: Record<string, string> | undefined;
  /**
   * Containment root for a project skill's `.mcp.json`: one whose real path (through symlinks) leaves
   * it is refused (`PATH_OUTSIDE_ROOT`). User and programmatic skills are not contained.
   * @default the skill's folder
   */
  root?: string | undefined;
  /** Largest `.mcp.json`, and largest server entry after expansion, in bytes. @default 1 MiB */
  maxConfigBytes?: number | undefined;
}

/** File name of the server list in an Agent Skills folder. */
export const MCP_JSON = ".mcp.json";

/**
 * Whether `skill` may declare MCP servers: it has `mcpServers`, or it is a SKILL.md skill whose folder
 * has a `.mcp.json` entry. Synchronous and one `stat` at most. For many skills, ask
 * {@link skillsDeclaringServers} once.
 */
export function mayDeclareServers(skill: Skill): boolean {
  return skillsDeclaringServers([skill]).length === 1;
}

/**
 * The skills of `skills` that may declare MCP servers ({@link mayDeclareServers}), in their order: a context
 * of 1,000 skills, nearly none of which declare servers, asks this once before reading any server list
 * with {@link serversFromSkill}. One loop rather than a call per skill: a function called once per skill
 * of a scan gets compiled by V8's optimising compiler as the scan ends, and a short-lived process then
 * waits for that compilation before it can exit (docs/performance.md).
 */
export function skillsDeclaringServers(skills: readonly Skill[]): Skill[] {
  const declaring: Skill[] = [];
  for (let i = 0; i < skills.length; i++) {
    const skill = skills[i]!;
    if (skill.mcpServers !== undefined) declaring.push(skill);
    else if (skill.source.format === "skill-md" && skill.dir !== undefined) {
      try {
        if (statSync(childPath(skill.dir, MCP_JSON), NO_THROW_IF_MISSING) !== undefined) declaring.push(skill);
      } catch {
        declaring.push(skill); // unreadable: serversFromSkill reports why
      }
    }
  }
  return declaring;
}

const NO_THROW_IF_MISSING = { throwIfNoEntry: false } as const;

/** The servers one skill declares, as {@link serversFromSkills} gives them. */
export interface SkillServers {
  /** The skill that declares the servers. */
  skill: Skill;
  /** Its servers, broken entries left out. */
  servers: DeclaredServer[];
  /** Why entries were left out or settings not expanded. */
  diagnostics: Diagnostic[];
}

/**
 * The MCP servers each of `skills` declares, for the skills that may declare any ({@link mayDeclareServers}),
 * in their order: {@link serversFromSkill} for each, after one cheap pass that skips the rest without
 * reading a file (a context of 1,000 skills, nearly none of which declare servers).
 *
 * @example
 * for (const { skill, servers, diagnostics } of await serversFromSkills(skills, { trust: { project: true } })) { … }
 */
export async function serversFromSkills(
  skills: readonly Skill[],
  options: ServersFromSkillOptions = {},
): Promise<SkillServers[]> {
  const found: SkillServers[] = [];
  for (const skill of skillsDeclaringServers(skills))
    found.push({ skill, ...(await serversFromSkill(skill, options)) });
  return found;
}

/**
 * Reads the MCP servers a skill declares: `skill.mcpServers` (legacy frontmatter `mcp_tools`,
 * either `{ mcpServers: {...} }` or a bare map) and, for SKILL.md skills, `<skill.dir>/.mcp.json`
 * (`{ "mcpServers": {...} }`). `${SKILL_ROOT}`, `${VAR}` and `${VAR:-default}` are expanded in the
 * settings (from `options.vars` and the allowlisted environment only); server names are never
 * expanded and are shown as written. An unresolved reference stays as written and is reported. A
 * stdio server starts in the skill's folder (a relative `cwd` resolves against it; a legacy skill's, which has
 * no folder, in `options.root`). Broken entries become diagnostics; the others
 * are kept. The first declaration of a name wins.
 *
 * @example
 * const { servers, diagnostics } = await serversFromSkill(skill, { trust: { project: true }, vars: { GITHUB_TOKEN: token } });
 */
export async function serversFromSkill(
  skill: Skill,
  options: ServersFromSkillOptions = {},
): Promise<{ servers: DeclaredServer[]; diagnostics: Diagnostic[] }> {
  const trusted = isScopeTrusted(skill.source.scope, options.trust, skill.source.origin);
  const maxBytes = options.maxConfigBytes ?? MCP_MAX_CONFIG_BYTES;
  const diagnostics: Diagnostic[] = [];
  const servers: DeclaredServer[] = [];

  const blocks: { raw: unknown; path: string | undefined }[] = [];
  if (skill.mcpServers !== undefined) blocks.push({ raw: skill.mcpServers, path: skill.source.path });
  // Only an Agent Skills folder belongs to one skill; a legacy skill's folder holds many.
  if (skill.source.format === "skill-md" && skill.dir !== undefined) {
    const file = childPath(skill.dir, MCP_JSON);
    const root = skill.source.scope === "project" ? (options.root ?? skill.dir) : undefined;
    const read = await readJson(file, { maxBytes, root });
    if (read.diagnostic !== undefined) diagnostics.push(read.diagnostic);
    if (read.found) blocks.push({ raw: read.value, path: file });
  }

  // The allowlisted environment is copied only for a skill that declares servers (most do not).
  const env = blocks.length === 0 ? {} : processEnv(options.vars);
  for (const block of blocks) {
    declareBlock(block, {
      skill: skill.name,
      trusted,
      env,
      fixed: { SKILL_ROOT: skill.dir },
      // A legacy skill has no folder of its own: its servers start at the project root, as the project's do.
      baseDir: skill.dir ?? options.root,
      maxBytes,
      servers,
      diagnostics,
    });
  }
  return { servers, diagnostics };
}

/** Where a block of server settings goes: the owner's list, with its trust decision and expansion context. */
export interface DeclareContext {
  /** The skill that declares the servers; undefined for the project's own configuration. */
  skill: string | undefined;
  trusted: boolean;
  env: Record<string, string>;
  /** Variables fixed by skillctx (`${SKILL_ROOT}`), never taken from the environment. */
  fixed: Record<string, string | undefined>;
  /** Where a stdio server starts when it names no `cwd`, and what a relative `cwd` resolves against. */
  baseDir: string | undefined;
  maxBytes: number;
  servers: DeclaredServer[];
  diagnostics: Diagnostic[];
}

/**
 * @internal Declares the servers of one block (`{ mcpServers: {...} }` or a bare map): names checked and
 * never expanded, settings expanded within caps and validated; broken entries become diagnostics; a name
 * already in `ctx.servers` is a duplicate (the first is kept).
 */
export function declareBlock(block: { raw: unknown; path: string | undefined }, ctx: DeclareContext): void {
  const { diagnostics, servers, maxBytes } = ctx;
  const where = { path: block.path };
  const owner = ctx.skill === undefined ? "the project" : `skill "${ctx.skill}"`;
  const map = serverMap(block.raw, where, diagnostics);
  for (const [name, rawConfig] of Object.entries(map)) {
    const refused = checkServerName(name);
    if (refused !== undefined) {
      diagnostics.push(
        diagnostic("MCP_CONFIG_INVALID", "error", `MCP server name ${refused}; the server is ignored`, where),
      );
      continue;
    }
    const expanded = expandVars(rawConfig, { env: ctx.env, fixed: ctx.fixed, maxChars: maxBytes });
    if (expanded.overflow) {
      diagnostics.push(
        diagnostic(
          "MCP_CONFIG_INVALID",
          "error",
          `MCP server "${name}" expands to more than ${formatBytes(maxBytes)} or nests deeper than ${MAX_EXPAND_DEPTH} levels; the server is ignored`,
          where,
        ),
      );
      continue;
    }
    for (const key of (expanded.collisions ?? []).slice(0, 10)) {
      diagnostics.push(
        diagnostic(
          "MCP_CONFIG_KEY_COLLISION",
          "warning",
          `MCP server "${name}": key ${JSON.stringify(headUtf16(key, 60))} expands to a key already set; the first is kept`,
          where,
        ),
      );
    }
    if (expanded.unresolved.length > 0) {
      const names = expanded.unresolved
        .slice(0, 10)
        .map((v) => `\${${v}}`)
        .join(", ");
      const more = expanded.unresolved.length > 10 ? ` and ${expanded.unresolved.length - 10} more` : "";
      diagnostics.push(
        diagnostic(
          "MCP_CONFIG_UNRESOLVED_VAR",
          "warning",
          `MCP server "${name}": ${names}${more} not set; left as written (only the allowlisted environment and the variables you pass are expanded)`,
          where,
        ),
      );
    }
    const parsed = parseServerConfig(name, expanded.value, where);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.config === undefined) continue;
    const config = parsed.config;
    // A stdio server starts in its owner's folder unless it names one (relative to that folder): the
    // project root for the project's `.mcp.json` (Claude Code starts project servers there, so a relative
    // path in `args` works), the skill's folder for a skill's own servers (docs/decisions.md).
    if (config.type === "stdio" && ctx.baseDir !== undefined) {
      config.cwd = config.cwd === undefined ? ctx.baseDir : path.resolve(ctx.baseDir, config.cwd);
    }
    const first = servers.find((s) => s.name === name);
    if (first !== undefined) {
      // The same server declared again with the same settings (`.cursor/mcp.json` a copy of `.mcp.json`)
      // changes nothing: only a declaration that differs is worth a word.
      if (equalValues(first.config, config)) continue;
      diagnostics.push(
        diagnostic(
          "MCP_SERVER_DUPLICATE",
          "warning",
          `MCP server "${name}" is declared twice by ${owner} with other settings; the first is kept`,
          where,
        ),
      );
      continue;
    }
    const server: DeclaredServer = { name, config, trusted: ctx.trusted };
    if (ctx.skill !== undefined) server.skill = ctx.skill;
    if (block.path !== undefined) server.path = block.path;
    servers.push(server);
  }
}

// `{ mcpServers: {...} }` or a bare map of servers.
function serverMap(
  raw: unknown,
  where: { path: string | undefined },
  diagnostics: Diagnostic[],
): Record<string, unknown> {
  if (!isRecord(raw)) {
    diagnostics.push(
      diagnostic("MCP_CONFIG_INVALID", "error", "MCP servers must be a map of server name to settings", where),
    );
    return {};
  }
  if (!("mcpServers" in raw)) return raw;
  const { mcpServers, ...rest } = raw;
  for (const key of Object.keys(rest)) {
    diagnostics.push(
      diagnostic(
        "MCP_CONFIG_UNKNOWN_KEY",
        "warning",
        `unknown key ${JSON.stringify(headUtf16(key, 60))} beside "mcpServers" ignored`,
        where,
      ),
    );
  }
  if (!isRecord(mcpServers)) {
    diagnostics.push(
      diagnostic("MCP_CONFIG_INVALID", "error", '"mcpServers" must be a map of server name to settings', where),
    );
    return {};
  }
  return mcpServers;
}

/** @internal Reads a JSON server list through the one file reader (containment, size cap); never throws. */
export async function readJson(
  file: string,
  options: { maxBytes: number; root: string | undefined },
): Promise<{ found: boolean; value?: unknown; diagnostic?: Diagnostic }> {
  // Synchronous: a scan of 1,000 skills asks for 1,000 mostly missing files; a thread-pool trip each costs 10× the call.
  const read = readTextFileSync(file, { maxBytes: options.maxBytes, root: options.root });
  if (!read.ok) {
    if (read.code === "NOT_FOUND") return { found: false };
    const code =
      read.code === "PATH_OUTSIDE_ROOT"
        ? "PATH_OUTSIDE_ROOT"
        : read.code === "TOO_LARGE"
          ? "MCP_CONFIG_TOO_LARGE"
          : "MCP_CONFIG_READ";
    const why =
      read.code === "PATH_OUTSIDE_ROOT"
        ? "it leads outside the project (symlink); not read"
        : read.code === "TOO_LARGE"
          ? `it is larger than ${formatBytes(options.maxBytes)}; not read`
          : read.message;
    return {
      found: false,
      diagnostic: diagnostic(code, "error", `cannot read ${path.basename(file)}: ${why}`, { path: file }),
    };
  }
  if (read.truncated) {
    const why = `it is larger than ${formatBytes(options.maxBytes)}; not read`;
    return {
      found: false,
      diagnostic: diagnostic("MCP_CONFIG_TOO_LARGE", "error", `cannot read ${path.basename(file)}: ${why}`, {
        path: file,
      }),
    };
  }
  const text = read.text;
  const parsed = safeParseJson(text);
  if (parsed.ok) return { found: true, value: parsed.value };
  // V8's message quotes the text around the error; say where instead, so no file content reaches a diagnostic.
  const position = /position (\d+)/.exec(parsed.error)?.[1];
  const line = position === undefined ? undefined : lineAt(text, Number(position));
  const at = line === undefined ? "" : ` (line ${line})`;
  return {
    found: false,
    diagnostic: diagnostic("MCP_CONFIG_INVALID", "error", `${path.basename(file)} is not valid JSON${at}`, {
      path: file,
      line,
    }),
  };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) line++;
  return line;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
