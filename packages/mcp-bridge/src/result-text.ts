import type { McpCallResult } from "./types.js";

/**
 * Flattens an MCP `tools/call` result to text. Text parts are kept as they are; other
 * parts are described, never dropped: `[image: image/png, 68 bytes]`, `[audio: …]`,
 * an embedded text resource as its URI followed by its text, a blob resource as
 * `[resource: uri, mime, N bytes]`, a resource link as `[resource link: uri …]`.
 * With no content, `structuredContent` (or a legacy `toolResult`) is given as JSON.
 * Parts are joined with a newline.
 */
export function resultToText(result: Record<string, unknown>): McpCallResult {
  const parts = Array.isArray(result.content) ? result.content : [];
  let content = parts.map((part) => partToText(part)).join("\n");
  if (parts.length === 0) {
    if (result.structuredContent !== undefined) content = JSON.stringify(result.structuredContent);
    else if ("toolResult" in result) content = JSON.stringify(result.toolResult);
  }
  return result.isError === true ? { content, isError: true } : { content };
}

function partToText(part: unknown): string {
  if (typeof part !== "object" || part === null) return `[unreadable content: ${JSON.stringify(part)}]`;
  const p = part as Record<string, unknown>;
  switch (p.type) {
    case "text":
      return String(p.text ?? "");
    case "image":
    case "audio":
      return `[${p.type}: ${String(p.mimeType ?? "unknown type")}, ${base64Bytes(p.data)} bytes]`;
    case "resource": {
      const r = (p.resource ?? {}) as Record<string, unknown>;
      const uri = String(r.uri ?? "(no uri)");
      if (typeof r.text === "string") return `[resource: ${uri}${r.mimeType ? ` (${String(r.mimeType)})` : ""}]\n${r.text}`;
      return `[resource: ${uri}, ${String(r.mimeType ?? "unknown type")}, ${base64Bytes(r.blob)} bytes]`;
    }
    case "resource_link": {
      const details = [p.name, p.mimeType].filter((v) => typeof v === "string" && v !== "").join(", ");
      const description = typeof p.description === "string" && p.description !== "" ? ` - ${p.description}` : "";
      return `[resource link: ${String(p.uri ?? "(no uri)")}${details ? ` (${details})` : ""}${description}]`;
    }
    default:
      return `[${String(p.type ?? "unknown")} content: ${truncate(JSON.stringify(part), 200)}]`;
  }
}

// Decoded size of base64 data without decoding it.
function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
