/**
 * The MCP SDK (`@modelcontextprotocol/sdk`) is an optional peer dependency: a default install leaves it
 * out (it brings its HTTP server side, express, hono and ajv, whatever part is used), and it is loaded only
 * when a skill declares an MCP server, a source is an MCP skill server, or skills are served. Each place
 * that loads it goes through {@link loadWithMcpSdk}, which turns "package not found" into one typed error.
 */
import { SkillctxError } from "@skillctx/core";

/** The optional peer that speaks MCP. */
export const MCP_SDK_PACKAGE = "@modelcontextprotocol/sdk";

/**
 * Runs `load` (an `import()` of a module that imports the SDK). When the SDK is not installed, throws
 * `SkillctxError` `MCP_SDK_MISSING` saying what needed it and how to add it; any other error passes through.
 */
export async function loadWithMcpSdk<T>(load: () => Promise<T>, neededFor: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isSdkMissing(error)) throw error;
    throw new SkillctxError(
      "MCP_SDK_MISSING",
      `${neededFor} needs the optional peer dependency ${MCP_SDK_PACKAGE}, which is not installed; add it beside skillctx (npm install ${MCP_SDK_PACKAGE})`,
      { cause: error },
    );
  }
}

/** Node's "Cannot find package '@modelcontextprotocol/sdk' imported from ..." (ESM) or "Cannot find module" (CommonJS). */
function isSdkMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    typeof message === "string" &&
    message.includes(`'${MCP_SDK_PACKAGE}`)
  );
}
