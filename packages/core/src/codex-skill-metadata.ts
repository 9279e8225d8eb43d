/**
 * Codex's `agents/openai.yaml` beside a SKILL.md: the skill's display name and short description, its
 * invocation policy and its MCP tool dependencies. Read through the one file reader (containment,
 * size cap) and the one YAML owner (`parseYamlBlock`, `typedValue`); never throws.
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import { isMap, isNode, isPair, isScalar, newLineCounter } from "./yaml-lib.js";
import type { Document } from "./yaml-lib.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import { childPath } from "./fs/paths.js";
import { readTextFileSync } from "./fs/read-text-file.js";
import { MAX_CODEX_YAML_BYTES } from "./limits.js";
import type { Skill } from "./skill.js";
import { isRecord } from "./skill-fields.js";
import { parseYamlBlock } from "./yaml-document.js";
import type { AliasTable } from "./yaml-document.js";
import { typedValue } from "./yaml-values.js";

/** Where Codex keeps a skill's product metadata, relative to the skill folder. */
export const CODEX_SKILL_YAML = path.join("agents", "openai.yaml");

/** What an `agents/openai.yaml` says, read tolerantly. */
export interface CodexSkillMetadata {
  /** `interface.display_name`. */
  displayName?: string;
  /** `interface.short_description`. */
  shortDescription?: string;
  /** `policy.allow_implicit_invocation` (`false`: only the user may invoke the skill). */
  allowImplicitInvocation?: boolean;
  /** `dependencies.tools` entries of type `mcp`, as MCP server settings by name (`@skillctx/mcp-bridge` validates them). */
  mcpServers?: Record<string, unknown>;
  /** The whole document with its YAML types, kept in the skill's `extra`. */
  document?: Record<string, unknown>;
  /** Dotted keys found (`interface.display_name`, ...), each with its line in the file. */
  keys: Array<{ key: string; line: number | undefined; value: unknown }>;
  diagnostics: Diagnostic[];
}

/**
 * Reads the text of an `agents/openai.yaml`. Unknown keys are kept (in `document`) and named in the
 * `keys` list; wrong types are warnings (`CODEX_FIELD_INVALID`) and the field is ignored.
 */
export function parseCodexSkillYaml(text: string, options: { path?: string } = {}): CodexSkillMetadata {
  const where = (line: number | undefined) => ({ path: options.path, line });
  const result: CodexSkillMetadata = { keys: [], diagnostics: [] };
  const counter = newLineCounter();
  const { doc, errors, aliases } = parseYamlBlock(text, { lineCounter: counter });
  const lineOf = (offset: number) => counter.linePos(offset).line;
  if (errors.length > 0) {
    const first = errors[0]!;
    result.diagnostics.push(
      diagnostic(
        "YAML_INVALID",
        "warning",
        `agents/openai.yaml is not valid YAML (${first.message}); ignored`,
        where(lineOf(first.offset)),
      ),
    );
    return result;
  }
  let value: unknown;
  try {
    value = doc.contents === null ? {} : typedValue(doc.contents, doc, aliases);
  } catch (error) {
    result.diagnostics.push(
      diagnostic(
        "YAML_INVALID",
        "warning",
        `agents/openai.yaml cannot be read (${String((error as Error).message)}); ignored`,
        where(1),
      ),
    );
    return result;
  }
  if (!isRecord(value)) {
    result.diagnostics.push(
      diagnostic("CODEX_FIELD_INVALID", "warning", "agents/openai.yaml should be a mapping; ignored", where(1)),
    );
    return result;
  }
  result.document = value;
  result.keys = dottedKeys(doc, aliases, lineOf);
  const lineOfKey = (key: string) => result.keys.find((k) => k.key === key)?.line;
  const invalid = (key: string, expected: string) =>
    result.diagnostics.push(
      diagnostic(
        "CODEX_FIELD_INVALID",
        "warning",
        `'${key}' in agents/openai.yaml should be ${expected}; ignored`,
        where(lineOfKey(key)),
      ),
    );

  const face = value["interface"];
  if (face !== undefined && face !== null && !isRecord(face)) invalid("interface", "a mapping");
  if (isRecord(face)) {
    const name = text1(face["display_name"]);
    if (name !== undefined) result.displayName = name;
    else if (face["display_name"] != null) invalid("interface.display_name", "a string");
    // Codex shows it on one line, whitespace runs collapsed (its skills loader `sanitize_single_line`).
    const short = text1(face["short_description"])?.replace(/\s+/g, " ");
    if (short !== undefined) result.shortDescription = short;
    else if (face["short_description"] != null) invalid("interface.short_description", "a string");
  }

  const policy = value["policy"];
  if (policy !== undefined && policy !== null && !isRecord(policy)) invalid("policy", "a mapping");
  if (isRecord(policy) && policy["allow_implicit_invocation"] != null) {
    const allow = policy["allow_implicit_invocation"];
    if (typeof allow === "boolean") result.allowImplicitInvocation = allow;
    else invalid("policy.allow_implicit_invocation", "true or false");
  }

  const dependencies = value["dependencies"];
  if (dependencies !== undefined && dependencies !== null && !isRecord(dependencies))
    invalid("dependencies", "a mapping");
  const tools = isRecord(dependencies) ? dependencies["tools"] : undefined;
  if (tools != null && !Array.isArray(tools)) invalid("dependencies.tools", "a list");
  if (Array.isArray(tools)) {
    const servers: Record<string, unknown> = {};
    tools.forEach((tool, i) => {
      const line = lineOfKey("dependencies.tools");
      const server = mcpDependency(tool, i, (message) =>
        result.diagnostics.push(diagnostic("CODEX_FIELD_INVALID", "warning", message, where(line))),
      );
      if (server === undefined) return;
      if (Object.hasOwn(servers, server.name)) {
        result.diagnostics.push(
          diagnostic(
            "MCP_SERVER_DUPLICATE",
            "warning",
            `MCP server "${server.name}" is listed twice in agents/openai.yaml; the first is kept`,
            where(line),
          ),
        );
        return;
      }
      Object.defineProperty(servers, server.name, {
        value: server.config,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    if (Object.keys(servers).length > 0) result.mcpServers = servers;
  }
  return result;
}

/** What {@link readCodexSkillMetadataSync} found. */
export interface CodexRead {
  /** The file exists (even when it could not be read). */
  found: boolean;
  metadata?: CodexSkillMetadata;
  diagnostics: Diagnostic[];
}

/**
 * Reads `<dir>/agents/openai.yaml` when it exists. `root` contains the read (a symlink that leaves
 * the project is refused with a warning); larger than `maxBytes` is `TOO_LARGE`.
 */
export function readCodexSkillMetadataSync(
  dir: string,
  options: { root?: string | undefined; maxBytes?: number } = {},
): CodexRead {
  const file = childPath(dir, CODEX_SKILL_YAML);
  const read = readTextFileSync(file, { maxBytes: options.maxBytes ?? MAX_CODEX_YAML_BYTES, root: options.root });
  if (!read.ok) {
    if (read.code === "NOT_FOUND") return { found: false, diagnostics: [] };
    return {
      found: true,
      diagnostics: [diagnostic(read.code, "warning", `agents/openai.yaml not read: ${read.message}`, { path: file })],
    };
  }
  const metadata = parseCodexSkillYaml(read.text, { path: file });
  return { found: true, metadata, diagnostics: metadata.diagnostics };
}

/**
 * The skill with what its `agents/openai.yaml` says: `metadata.display_name` and
 * `metadata.short_description` (unless the SKILL.md's metadata sets them), `disableModelInvocation`
 * when `policy.allow_implicit_invocation` is false, the `mcp` dependencies added to `mcpServers` (a
 * server `mcp_tools` already names wins), and the document in `extra["agents/openai.yaml"]`.
 * Returns a new object; `skill` is not changed.
 */
export function withCodexMetadata(skill: Skill, codex: CodexSkillMetadata): Skill {
  const out: Skill = { ...skill };
  const metadata = { ...skill.metadata };
  if (codex.displayName !== undefined && !Object.hasOwn(metadata, "display_name"))
    metadata["display_name"] = codex.displayName;
  if (codex.shortDescription !== undefined && !Object.hasOwn(metadata, "short_description"))
    metadata["short_description"] = codex.shortDescription;
  out.metadata = metadata;
  if (codex.allowImplicitInvocation === false) out.disableModelInvocation = true;
  if (codex.mcpServers !== undefined) out.mcpServers = { ...codex.mcpServers, ...skill.mcpServers };
  if (codex.document !== undefined) out.extra = { ...skill.extra, "agents/openai.yaml": codex.document };
  return out;
}

// Remembered per cache entry (the SKILL.md's parse), keyed by the YAML file's size and mtime.
const remembered = new WeakMap<object, { key: string; read: CodexRead }>();

/**
 * {@link readCodexSkillMetadataSync} for a scanned skill folder, remembered against `owner` (the cache
 * entry of its SKILL.md) while the file's size and mtime stay the same: an unchanged skill costs one
 * `stat`. `calls` counts file-system calls, for the scan's pacing.
 */
export function codexMetadataOf(
  dir: string,
  owner: object,
  options: { root?: string | undefined } = {},
): CodexRead & { calls: number } {
  const file = childPath(dir, CODEX_SKILL_YAML);
  let key = "none";
  try {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat !== undefined) key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    key = "unreadable";
  }
  // Most skills have no such file: one shared answer, nothing remembered.
  if (key === "none") return NO_CODEX_YAML;
  const known = remembered.get(owner);
  if (known !== undefined && known.key === key) return { ...known.read, calls: 1 };
  const read = readCodexSkillMetadataSync(dir, options);
  remembered.set(owner, { key, read });
  return { ...read, calls: 4 };
}

const NO_CODEX_YAML: CodexRead & { calls: number } = Object.freeze({
  found: false,
  diagnostics: Object.freeze([]) as unknown as Diagnostic[],
  calls: 1,
});

// A Codex `dependencies.tools` entry of type `mcp` as MCP server settings: `url` (with `transport`
// streamable_http, http or sse, or none) is an HTTP server; `command` (with `args`) a stdio server.
function mcpDependency(
  tool: unknown,
  index: number,
  warn: (message: string) => void,
): { name: string; config: Record<string, unknown> } | undefined {
  const at = `dependencies.tools[${index}]`;
  if (!isRecord(tool)) {
    warn(`'${at}' in agents/openai.yaml should be a mapping with a type and a value; ignored`);
    return undefined;
  }
  if (tool["type"] !== "mcp") return undefined; // Codex supports only mcp dependencies for now; others are not tools skillctx can start
  const name = text1(tool["value"]);
  if (name === undefined) {
    warn(`'${at}' in agents/openai.yaml has no value (the server name); ignored`);
    return undefined;
  }
  const config: Record<string, unknown> = {};
  const transport = text1(tool["transport"]);
  if (transport !== undefined) config["transport"] = transport === "sse" ? "http" : transport;
  if (tool["url"] !== undefined) config["url"] = tool["url"];
  if (tool["command"] !== undefined) config["command"] = tool["command"];
  if (tool["args"] !== undefined) config["args"] = tool["args"];
  if (tool["env"] !== undefined) config["env"] = tool["env"];
  if (config["url"] === undefined && config["command"] === undefined) {
    warn(`MCP dependency "${name}" in agents/openai.yaml has neither a url nor a command; ignored`);
    return undefined;
  }
  return { name, config };
}

function text1(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

// The keys of the top mapping and of the mappings one level below it, dotted, with their lines.
function dottedKeys(
  doc: Document,
  aliases: AliasTable,
  lineOf: (offset: number) => number,
): CodexSkillMetadata["keys"] {
  const out: CodexSkillMetadata["keys"] = [];
  const top = doc.contents;
  if (!isMap(top)) return out;
  for (const pair of top.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const line = lineOf(pair.key.range?.[0] ?? 0);
    const inner = pair.value;
    if (isMap(inner)) {
      for (const child of inner.items) {
        if (!isPair(child) || !isScalar(child.key)) continue;
        const value = isNode(child.value) ? safeValue(child.value, doc, aliases) : child.value;
        out.push({ key: `${key}.${String(child.key.value)}`, line: lineOf(child.key.range?.[0] ?? 0), value });
      }
    } else {
      out.push({ key, line, value: isNode(inner) ? safeValue(inner, doc, aliases) : inner });
    }
  }
  return out;
}

function safeValue(node: unknown, doc: Document, aliases: AliasTable): unknown {
  try {
    return typedValue(node, doc, aliases);
  } catch {
    return undefined;
  }
}
