/**
 * Request handlers whose params we check, not the SDK: the SDK parses a request with the handler's
 * schema before the handler runs and answers a failure as -32603 (internal error) carrying zod's
 * multi-line dump. A client's malformed params (a cursor that is a number, a uri that is an object) are
 * its mistake: JSON-RPC 2.0's -32602 "Invalid params" (https://www.jsonrpc.org/specification#error_object)
 * with one short line. The SDK is handed a schema of the method alone, so the request reaches us whole.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { headUtf16 } from "@skillctx/core/internal";

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** The part of a zod object schema this needs (the SDK's and sources/protocol's request schemas). */
export interface RequestSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
  pick(mask: { method: true }): { loose(): unknown };
}

/** Registers `handler` for `schema`'s method on `server`; params that do not parse are -32602, one line. */
export function setCheckedHandler<T>(server: Server, schema: RequestSchema<T>, handler: (request: T) => unknown): void {
  const methodOnly = schema.pick({ method: true }).loose();
  server.setRequestHandler(
    methodOnly as never,
    ((request: unknown) => {
      const parsed = schema.safeParse(request);
      if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, invalidParamsLine(parsed.error.issues));
      return handler(parsed.data);
    }) as never,
  );
}

// `params.cursor: Invalid input: expected string, received number`: the first issue, printable, capped.
function invalidParamsLine(issues: readonly Issue[]): string {
  const first = issues[0];
  if (first === undefined) return "invalid params";
  const where = first.path.map(String).join(".");
  const line = `${where === "" ? "request" : where}: ${first.message}`.replace(/[^\x20-\x7e]+/g, " ");
  return headUtf16(line, 200) + (issues.length > 1 ? ` (and ${issues.length - 1} more)` : "");
}
