import { MCP_MAX_RESULT_CHARS } from "./limits.js";
import { ellipsizeUtf16, headUtf16 } from "@skillctx/core/internal";
import type { McpCallResult } from "./types.js";

/**
 * Flattens an MCP `tools/call` result to text. Text parts are kept as they are; other
 * parts are described, never dropped: `[image: image/png, 68 bytes]`, `[audio: …]`,
 * an embedded text resource as its URI followed by its text, a blob resource as
 * `[resource: uri, mime, N bytes]`, a resource link as `[resource link: uri …]`.
 * With no content, `structuredContent` (or a legacy `toolResult`) is given as JSON.
 * Parts are joined with a newline. Text past `maxChars` is cut, and a last line says how much was cut.
 */
export function resultToText(result: Record<string, unknown>, options: { maxChars?: number } = {}): McpCallResult {
  const parts = Array.isArray(result.content) ? result.content : [];
  let content = parts.map((part) => partToText(part)).join("\n");
  if (parts.length === 0) {
    if (result.structuredContent !== undefined) content = toJson(result.structuredContent);
    else if ("toolResult" in result) content = toJson(result.toolResult);
  }
  content = capResultChars(content, options.maxChars ?? MCP_MAX_RESULT_CHARS);
  return result.isError === true ? { content, isError: true } : { content };
}

/** Cuts `text` to `max` UTF-16 units (core's cutter: never inside a surrogate pair) and says so on a last line. */
export function capResultChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = headUtf16(text, max);
  return `${head}\n[… ${text.length - head.length} more characters cut: the result is longer than the ${max}-character cap]`;
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
      if (typeof r.text === "string")
        return `[resource: ${uri}${r.mimeType ? ` (${String(r.mimeType)})` : ""}]\n${r.text}`;
      return `[resource: ${uri}, ${String(r.mimeType ?? "unknown type")}, ${base64Bytes(r.blob)} bytes]`;
    }
    case "resource_link": {
      const details = [p.name, p.mimeType].filter((v) => typeof v === "string" && v !== "").join(", ");
      const description = typeof p.description === "string" && p.description !== "" ? ` - ${p.description}` : "";
      return `[resource link: ${String(p.uri ?? "(no uri)")}${details ? ` (${details})` : ""}${description}]`;
    }
    default:
      return `[${String(p.type ?? "unknown")} content: ${ellipsizeUtf16(toJson(part), 200)}]`;
  }
}

// JSON text of structured content; a value nested too deeply to serialise is described instead.
function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "[structured content that cannot be shown: nested too deeply]";
  }
}

// Decoded size of base64 data without decoding it.
function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
