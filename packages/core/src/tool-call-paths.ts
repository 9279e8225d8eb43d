import { fileURLToPath } from "node:url";
import { decodeToolArguments } from "./tool-arguments.js";

/**
 * Argument names that hold file paths, compared after lower-casing and removing `_` and `-`
 * (so `file_path`, `filePath` and `file-path` are one name). Covers the file tools of Claude Code
 * (`file_path`, `notebook_path`, `path`), OpenHands (`path`), Gemini CLI (`absolute_path`, `file_path`),
 * Cursor (`target_file`, `relative_workspace_path`), MCP filesystem servers (`path`, `paths`, `source`,
 * `destination`) and common custom tools.
 */
const PATH_KEYS = new Set([
  "path",
  "paths",
  "file",
  "files",
  "filepath",
  "filepaths",
  "filename",
  "filenames",
  "targetfile",
  "targetfiles",
  "targetpath",
  "targetpaths",
  "sourcepath",
  "sourcefile",
  "destinationpath",
  "destpath",
  "destination",
  "source",
  "oldpath",
  "newpath",
  "notebookpath",
  "absolutepath",
  "relativepath",
  "relativeworkspacepath",
  "dirpath",
  "directory",
  "dir",
]);

/** Keys whose string value may be a Codex / OpenAI `apply_patch` envelope. */
const PATCH_KEYS = new Set(["input", "patch"]);

/** At most this many paths are returned (a guard against giant argument lists). */
const MAX_PATHS = 256;

/**
 * The file paths a tool call's arguments name, in the order they appear, without duplicates.
 *
 * `args` is the call's argument object, or its JSON text (as OpenAI function calls carry it; text
 * that is not a JSON object yields nothing). A value is taken when its key is a path key (see
 * `PATH_KEYS`: `path`, `file_path`, `filePath`, `paths`, `file`, `files`, `filename`, `target_file`,
 * `notebook_path`, `absolute_path`, `source`, `destination`, …) and it is a string or an array of
 * strings. Objects and arrays of objects one level down are searched the same way (for example
 * `{ edits: [{ file_path }] }`). A string value of `input` / `patch` that is an `apply_patch` envelope
 * (`*** Begin Patch`) yields the paths of its `*** Add/Update/Delete File:` and `*** Move to:` lines.
 * `file://` URLs become paths; other URLs, empty strings and strings with NUL or line breaks are
 * skipped. At most 256 paths. Never throws.
 *
 * @example
 * toolCallPaths({ file_path: "src/a.ts", edits: [{ path: "b.md" }] }) // ["src/a.ts", "b.md"]
 */
export function toolCallPaths(args: unknown): string[] {
  const decoded = decodeToolArguments(args);
  if (!decoded.ok) return [];
  const value = decoded.value;
  const found = new Set<string>();
  try {
    collect(value, 0, found);
  } catch {
    // A hostile object (throwing getter, proxy): keep what was found so far.
  }
  return [...found].slice(0, MAX_PATHS);
}

// ---------------------------------------------------------------------------------------------

function collect(value: unknown, depth: number, found: Set<string>): void {
  if (found.size >= MAX_PATHS || depth > 1) return;
  if (Array.isArray(value)) {
    // An array of objects sits at the depth of the key that holds it.
    for (const item of value) if (isRecord(item)) collect(item, depth, found);
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, item] of Object.entries(value)) {
    const normal = key.toLowerCase().replace(/[-_]/g, "");
    if (PATH_KEYS.has(normal)) {
      for (const candidate of Array.isArray(item) ? item : [item]) add(candidate, found);
    } else if (PATCH_KEYS.has(normal) && typeof item === "string") {
      for (const candidate of patchPaths(item)) add(candidate, found);
    } else if (depth === 0 && (isRecord(item) || Array.isArray(item))) {
      collect(item, depth + 1, found);
    }
  }
}

function add(candidate: unknown, found: Set<string>): void {
  if (typeof candidate !== "string" || found.size >= MAX_PATHS) return;
  const text = candidate.trim();
  // Multi-line text is content (for example a `source` that holds code), not a path.
  if (text === "" || /[\0\r\n]/.test(text)) return;
  if (/^file:\/\//i.test(text)) {
    try {
      found.add(fileURLToPath(text));
    } catch {
      // A malformed file URL names no path.
    }
    return;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return; // http://, s3://, ...
  found.add(text);
}

const PATCH_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

function patchPaths(text: string): string[] {
  if (!text.trimStart().startsWith("*** Begin Patch")) return [];
  return [...text.matchAll(PATCH_LINE)].map((match) => match[1]!.trim());
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
