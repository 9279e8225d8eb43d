/**
 * The skill server's answers, as plain functions of a snapshot: `skills/list`, `skills/get`,
 * `resources/list`, `resources/read`, `resources/templates/list`, `resources/directory/read`. Each
 * looks URIs up in the snapshot's maps and never builds a file path from one. Bad requests throw the
 * SDK's `McpError` with `-32602` (Invalid params), as SEP-2640 asks for unknown skills and directories.
 */
import { MAX_ANSWER_BYTES, MAX_LIST_PAGE_BYTES, MAX_REQUEST_URI_CHARS } from "./limits.js";
import { ellipsizeUtf16 } from "@skillctx/core/internal";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { makeCursor, readCursor } from "./cursor.js";
import type { DirectoryReadResult, SkillsGetResult, SkillsListResult } from "@skillctx/sources/protocol";
import type { ServedFile, ServedSkillIndex } from "./skill-index.js";

/** Paging settings of a server. */
export interface PageSettings {
  /** Skills per `skills/list` page. */
  pageSize: number;
  /** Resources per `resources/list` and `resources/directory/read` page. */
  resourcePageSize: number;
  /** `ttlMs` of `skills/list` results. */
  ttlMs: number;
}

/** Finds the snapshot a cursor was made for: the current one or the one before (a refresh mid-listing). */
export type SnapshotOf = (generation: string) => ServedSkillIndex | undefined;

/** `skills/list`: a page of entries (an entry is never split), its `nextCursor`, and `ttlMs`. */
export function listSkills(
  current: ServedSkillIndex,
  snapshotOf: SnapshotOf,
  cursor: string | undefined,
  settings: PageSettings,
): SkillsListResult {
  const { index, offset } = position("skills", current, snapshotOf, cursor);
  const skills = [];
  let bytes = 0;
  let next = offset;
  while (next < index.skills.length && skills.length < settings.pageSize) {
    const skill = index.skills[next]!;
    const size = skill.entryBytes;
    if (skills.length > 0 && bytes + size > MAX_LIST_PAGE_BYTES) break;
    skills.push(skill.entry);
    bytes += size;
    next++;
  }
  const result: SkillsListResult = { skills, ttlMs: settings.ttlMs };
  if (next < index.skills.length) result.nextCursor = makeCursor("skills", index.generation, next);
  return result;
}

/** `skills/get`: the entry of the skill whose SKILL.md is `uri`. */
export function getSkill(index: ServedSkillIndex, uri: string): SkillsGetResult {
  checkUri(uri);
  const skill = index.byUri.get(uri);
  if (skill === undefined) throw new McpError(ErrorCode.InvalidParams, `not a skill this server serves: ${shown(uri)}`);
  return { skill: skill.entry };
}

/** `resources/list`: every skill's SKILL.md (name and description from its frontmatter), paginated. */
export function listResources(
  current: ServedSkillIndex,
  snapshotOf: SnapshotOf,
  cursor: string | undefined,
  settings: PageSettings,
): { resources: Resource[]; nextCursor?: string } {
  const { index, offset } = position("resources", current, snapshotOf, cursor);
  const page = index.skills.slice(offset, offset + settings.resourcePageSize);
  const resources: Resource[] = page.map((skill) => ({
    uri: skill.uri,
    name: skill.name,
    description: skill.description,
    mimeType: "text/markdown",
    size: skill.files.find((f) => f.path === "SKILL.md")?.size ?? 0,
  }));
  const end = offset + page.length;
  return end < index.skills.length
    ? { resources, nextCursor: makeCursor("resources", index.generation, end) }
    : { resources };
}

/** `resources/templates/list`: one template, `skill://{+path}`. */
export function listTemplates(): { resourceTemplates: ResourceTemplate[] } {
  return {
    resourceTemplates: [
      {
        uriTemplate: "skill://{+path}",
        name: "skill-file",
        description:
          "A file of a served skill: skill://<skill-path>/<file>, e.g. skill://my-skill/references/guide.md. skills/list names every file.",
      },
    ],
  };
}

/** `resources/read`: a served file's text, or its bytes as a base64 blob. */
export function readResource(index: ServedSkillIndex, uri: string): ReadResourceResult {
  checkUri(uri);
  const file = index.files.get(uri);
  if (file === undefined) {
    const hint = index.directories.has(uri) ? " (a directory: read it with resources/directory/read)" : "";
    throw new McpError(ErrorCode.InvalidParams, `no such resource: ${shown(uri)}${hint}`);
  }
  const bytes = file.text !== undefined ? Buffer.byteLength(file.text) : Math.ceil(file.size / 3) * 4;
  if (bytes > MAX_ANSWER_BYTES)
    throw new McpError(
      ErrorCode.InvalidParams,
      `${shown(uri)} is too large to answer: ${bytes} bytes of content, more than ${MAX_ANSWER_BYTES}`,
    );
  return { contents: [fileContents(file)] };
}

/** The `contents` item of one file. */
export function fileContents(file: ServedFile): ReadResourceResult["contents"][number] {
  return file.text !== undefined
    ? { uri: file.uri, mimeType: file.mimeType, text: file.text }
    : { uri: file.uri, mimeType: file.mimeType, blob: file.bytes!.toString("base64") };
}

/** `resources/directory/read`: the direct children of a directory resource, paginated. */
export function readDirectory(
  current: ServedSkillIndex,
  snapshotOf: SnapshotOf,
  uri: string,
  cursor: string | undefined,
  settings: PageSettings,
): DirectoryReadResult {
  checkUri(uri);
  const kind = `dir:${uri}`;
  const found = current.directories.get(uri);
  if (found === undefined && cursor === undefined) {
    const hint = current.files.has(uri) ? " (a file, not a directory)" : "";
    throw new McpError(ErrorCode.InvalidParams, `no such directory: ${shown(uri)}${hint}`);
  }
  const { index, offset } = position(kind, current, snapshotOf, cursor);
  const children = index.directories.get(uri);
  if (children === undefined) throw new McpError(ErrorCode.InvalidParams, `no such directory: ${shown(uri)}`);
  const page = children.slice(offset, offset + settings.resourcePageSize);
  const end = offset + page.length;
  return end < children.length
    ? { resources: page, nextCursor: makeCursor(kind, index.generation, end) }
    : { resources: page };
}

// The snapshot and offset a cursor names; no cursor: the current snapshot from the start.
function position(
  kind: string,
  current: ServedSkillIndex,
  snapshotOf: SnapshotOf,
  cursor: string | undefined,
): { index: ServedSkillIndex; offset: number } {
  if (cursor === undefined) return { index: current, offset: 0 };
  if (typeof cursor !== "string") throw new McpError(ErrorCode.InvalidParams, "cursor must be a string");
  const read = readCursor(kind, cursor);
  const index = read === undefined ? undefined : snapshotOf(read.generation);
  if (read === undefined || index === undefined) {
    throw new McpError(ErrorCode.InvalidParams, "invalid or expired cursor: list again without one");
  }
  return { index, offset: read.offset };
}

function checkUri(uri: unknown): asserts uri is string {
  if (typeof uri !== "string" || uri.length === 0)
    throw new McpError(ErrorCode.InvalidParams, "uri must be a non-empty string");
  if (uri.length > MAX_REQUEST_URI_CHARS)
    throw new McpError(ErrorCode.InvalidParams, `uri is longer than ${MAX_REQUEST_URI_CHARS} characters`);
}

// A URI quoted back in an error: short, printable.
function shown(uri: string): string {
  const cut = ellipsizeUtf16(uri, 200);
  return JSON.stringify(cut);
}
