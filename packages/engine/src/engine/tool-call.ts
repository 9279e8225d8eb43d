import type { ToolResult } from "../context-types.js";
import type { EngineDeps } from "./step-deps.js";

/** A tool call through the toolbox, observed (events, span) when someone listens or traces. */
export function observedCall(
  deps: Pick<EngineDeps, "toolbox" | "servers" | "store" | "telemetry">,
  name: string,
  args: unknown,
  signal: AbortSignal,
): Promise<ToolResult> {
  const { toolbox, servers, store } = deps;
  const kind = toolbox.kindOf(name);
  const skill = () =>
    (kind === "provider" ? servers.skillOf(name) : kind === "code" ? toolbox.codeToolSkill(name) : undefined) ??
    store.activeSkill;
  const info = { name: typeof name === "string" ? name : String(name), kind, skill };
  return deps.telemetry.tool(info, args, (callId) => toolbox.call(name, args, { signal, callId }));
}
