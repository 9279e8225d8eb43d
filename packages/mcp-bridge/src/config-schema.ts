import { diagnostic, type Diagnostic } from "@skillctx/core";
import { lazySchemas } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import { ellipsizeUtf16, headUtf16 } from "@skillctx/core/internal";

const HTTP_TYPES = new Set(["http", "streamable-http", "streamableHttp", "streamable_http"]);

/**
 * The MCP server config schemas, built on the first call (zod loads then; importing the package does not
 * load it). `McpServerConfigSchema` is also exported by `@skillctx/mcp-bridge/schemas`.
 */
export const serverConfigSchemas = lazySchemas((z) => {
  const common = {
    /** `false` declares the server without ever starting it. @default true */
    enabled: z.boolean().optional(),
    /** Per-call timeout for this server's tools, in milliseconds. */
    timeout: z.number().int().positive().optional(),
  };

  /** A server started as a child process and spoken to over stdin/stdout. */
  const StdioServerConfigSchema = z.object({
    type: z.literal("stdio"),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    /** Added to the allowlisted environment; wins over inherited and bridge-level values. */
    env: z.record(z.string(), z.string()).optional(),
    /** Working directory; a relative path resolves against the skill's folder. */
    cwd: z.string().min(1).optional(),
    ...common,
  });

  /** A server reached over streamable HTTP. */
  const HttpServerConfigSchema = z.object({
    type: z.literal("http"),
    url: z.url({ protocol: /^https?$/ }),
    headers: z.record(z.string(), z.string()).optional(),
    ...common,
  });

  /**
   * One MCP server as declared in `mcp_tools` or `.mcp.json`: stdio `{ command, args?, env?, cwd? }`
   * or streamable HTTP `{ url, headers? }`, plus `enabled?` and `timeout?` (ms).
   * `type` (or FastMCP's `transport`) may be left out: it is inferred from `command` / `url`.
   * Cline's `disabled: true` is read as `enabled: false`. Unknown keys are stripped
   * (`parseServerConfig` reports them as warnings).
   */
  const McpServerConfigSchema = z.preprocess(
    normalize,
    z.discriminatedUnion("type", [StdioServerConfigSchema, HttpServerConfigSchema]),
  );

  return { StdioServerConfigSchema, HttpServerConfigSchema, McpServerConfigSchema };
});

type Schemas = ReturnType<typeof serverConfigSchemas>;

export type McpServerConfig = z.infer<Schemas["McpServerConfigSchema"]>;
export type StdioServerConfig = z.infer<Schemas["StdioServerConfigSchema"]>;
export type HttpServerConfig = z.infer<Schemas["HttpServerConfigSchema"]>;

/** Longest server name accepted, in characters. */
export const MAX_SERVER_NAME = 128;

// Control characters, line and paragraph separators, and bidirectional overrides: a name must read
// the same in a diagnostic, a log line and the model's tool list as in the file.
const UNSAFE_NAME = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/**
 * Checks a declared server name, which is shown to the model (in `mcp__<server>__<tool>`) and in
 * diagnostics exactly as written: names are never `${VAR}`-expanded. Refused: empty names, names longer
 * than {@link MAX_SERVER_NAME}, and names with control characters or bidirectional overrides.
 *
 * @returns why the name is refused (a phrase that starts with the quoted name), or undefined when it is fine.
 */
export function checkServerName(name: string): string | undefined {
  const shown = JSON.stringify(ellipsizeUtf16(name, 60));
  if (name.trim() === "") return `${shown} is empty`;
  if (name.length > MAX_SERVER_NAME) return `${shown} is longer than ${MAX_SERVER_NAME} characters`;
  if (UNSAFE_NAME.test(name)) return `${shown} contains control or bidirectional characters`;
  return undefined;
}

const KNOWN_KEYS = {
  stdio: new Set(["type", "transport", "command", "args", "env", "cwd", "enabled", "disabled", "timeout"]),
  http: new Set(["type", "transport", "url", "headers", "enabled", "disabled", "timeout"]),
};

/**
 * Validates one server entry. A broken entry gives no config and an error diagnostic;
 * unknown keys give warnings and are dropped.
 */
export function parseServerConfig(
  name: string,
  raw: unknown,
  where: { path?: string | undefined } = {},
): { config?: McpServerConfig; diagnostics: Diagnostic[] } {
  const result = serverConfigSchemas().McpServerConfigSchema.safeParse(raw);
  if (!result.success) {
    const detail = result.error.issues
      .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
      .join("; ");
    return {
      diagnostics: [diagnostic("MCP_CONFIG_INVALID", "error", `MCP server "${name}" is invalid: ${detail}`, where)],
    };
  }
  const config = result.data;
  const diagnostics = Object.keys(raw as Record<string, unknown>)
    .filter((key) => !KNOWN_KEYS[config.type].has(key))
    .map((key) =>
      diagnostic(
        "MCP_CONFIG_UNKNOWN_KEY",
        "warning",
        `MCP server "${name}": unknown key ${JSON.stringify(headUtf16(key, 60))} ignored`,
        where,
      ),
    );
  return { config, diagnostics };
}

// Fills in `type` and folds the aliases other clients use into the schema's own keys.
function normalize(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const { transport, disabled, ...rest } = raw as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  const declared = out.type ?? transport;
  if (typeof declared === "string") {
    out.type = HTTP_TYPES.has(declared) ? "http" : declared;
  } else if (declared === undefined) {
    out.type = "url" in out && !("command" in out) ? "http" : "stdio";
  }
  // A non-boolean `disabled` surfaces as an `enabled` type error rather than vanishing.
  if (disabled !== undefined && out.enabled === undefined)
    out.enabled = typeof disabled === "boolean" ? !disabled : disabled;
  return out;
}
