/** MIME types of served skill files: by extension, and whether the bytes are text. */
import { decodeStrict } from "@skillctx/core/internal";

const TEXT_TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  mdc: "text/markdown",
  txt: "text/plain",
  py: "text/x-python",
  sh: "text/x-shellscript",
  bash: "text/x-shellscript",
  js: "text/javascript",
  mjs: "text/javascript",
  cjs: "text/javascript",
  ts: "text/x-typescript",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  xml: "application/xml",
  html: "text/html",
  css: "text/css",
  csv: "text/csv",
  svg: "image/svg+xml",
};

const BINARY_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
};

/** A file's bytes as served: text (strict UTF-8, no NUL) or a blob, with a MIME type. */
export interface FileContent {
  mimeType: string;
  /** The text, when the bytes are UTF-8 text; otherwise the file is served as a base64 blob. */
  text: string | undefined;
}

/** How `bytes` of the file at `relative` (a `/`-separated path) are served. */
export function fileContent(relative: string, bytes: Uint8Array): FileContent {
  const dot = relative.lastIndexOf(".");
  const ext = dot > relative.lastIndexOf("/") ? relative.slice(dot + 1).toLowerCase() : "";
  const decoded = decodeStrict(bytes);
  if (decoded.ok) return { mimeType: TEXT_TYPES[ext] ?? BINARY_TYPES[ext] ?? "text/plain", text: decoded.text };
  return { mimeType: BINARY_TYPES[ext] ?? "application/octet-stream", text: undefined };
}
