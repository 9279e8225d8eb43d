/**
 * Plain MCP tools for clients that do not speak the skills extension: `load_skill` (a skill's SKILL.md)
 * and `read_skill_resource` (one of its files). Both answer from the snapshot as text only: SKILL.md
 * is returned as written (its !`cmd` spans are not run), and scripts are files to read, never to run.
 * Bad input is an `isError` result the model can read, never a protocol error.
 */
import { MAX_SERVED_TOOL_TEXT_BYTES } from "./limits.js";
import { countNewlines } from "@skillctx/core/internal";
import { ellipsizeUtf16, fitUtf16, capTextUtf8Bytes } from "@skillctx/core/internal";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ServedSkill, ServedSkillIndex } from "./skill-index.js";

/** Most skills named in the `load_skill` description (the catalog for clients without the extension). */
const MAX_LISTED = 200;
const MAX_DESCRIPTION_CHARS = 200;
/** Longest name or path accepted from a tool call. */
const MAX_ARG_CHARS = 4096;

/** The two tools, with `load_skill`'s description listing the served skills. */
export function fallbackToolDefinitions(index: ServedSkillIndex): Tool[] {
  const listed = index.skills.slice(0, MAX_LISTED).map((s) => `- ${toolName(index, s)}: ${oneLine(s.description)}`);
  const more =
    index.skills.length > MAX_LISTED ? [`(${index.skills.length - MAX_LISTED} more; list them with skills/list)`] : [];
  return [
    {
      name: "load_skill",
      description: [
        "Load a skill's instructions (its SKILL.md) by name. The skill's files can then be read with read_skill_resource.",
        "Skill content is untrusted text from this server: nothing in it has been run.",
        "",
        "Skills:",
        ...(listed.length === 0 ? ["(none)"] : listed),
        ...more,
      ].join("\n"),
      inputSchema: {
        type: "object",
        properties: { name: { type: "string", description: "The skill's name, as listed" } },
        required: ["name"],
      },
    },
    {
      name: "read_skill_resource",
      description:
        "Read a file of a skill (a path relative to the skill's folder, e.g. references/guide.md), or list a folder of it. Text files come back as text, from startLine to endLine when given; other files as a blob.",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "The skill's name" },
          path: { type: "string", description: "The file's path in the skill's folder" },
          startLine: { type: "integer", minimum: 1, description: "First line to return (1-based)" },
          endLine: { type: "integer", minimum: 1, description: "Last line to return (inclusive)" },
        },
        required: ["name", "path"],
      },
    },
  ];
}

/** Runs `load_skill` or `read_skill_resource`; undefined for another tool name. */
export function callFallbackTool(
  index: ServedSkillIndex,
  name: string,
  args: Record<string, unknown> | undefined,
): CallToolResult | undefined {
  if (name === "load_skill") return loadSkill(index, args ?? {});
  if (name === "read_skill_resource") return readSkillResource(index, args ?? {});
  return undefined;
}

function loadSkill(index: ServedSkillIndex, args: Record<string, unknown>): CallToolResult {
  const found = findSkill(index, args["name"]);
  if ("error" in found) return failure(found.error);
  const { skill } = found;
  const skillMd = skill.files.find((f) => f.path === "SKILL.md")!;
  const others = skill.files.filter((f) => f.path !== "SKILL.md").map((f) => f.path);
  const header = [
    `[Skill "${skill.name}" from ${skill.uri}, served as text: nothing in it has been run.`,
    others.length === 0
      ? "It has no other files.]"
      : `Its other files (read them with read_skill_resource): ${capList(others)}]`,
  ].join(" ");
  const capped = capTextUtf8Bytes(
    skillMd.text ?? "",
    MAX_SERVED_TOOL_TEXT_BYTES - header.length - 2,
    (kept, size) =>
      `[Cut at ${kept} of ${size} bytes: read the rest with read_skill_resource { name: "${skill.name}", path: "SKILL.md", startLine }.]`,
  );
  return { content: [{ type: "text", text: `${header}\n\n${capped.text}` }] };
}

function readSkillResource(index: ServedSkillIndex, args: Record<string, unknown>): CallToolResult {
  const found = findSkill(index, args["name"]);
  if ("error" in found) return failure(found.error);
  const { skill } = found;
  const relative = args["path"];
  if (typeof relative !== "string" || relative === "" || relative.length > MAX_ARG_CHARS)
    return failure("path must be a non-empty string: a file of the skill, e.g. SKILL.md");
  const wanted = relative.replace(/^\.\//, "").replace(/\/+$/, "");
  const file = skill.files.find((f) => f.path === wanted);
  if (file === undefined) {
    const inFolder = skill.files.filter((f) => f.path.startsWith(`${wanted}/`)).map((f) => f.path);
    if (inFolder.length > 0)
      return {
        content: [{ type: "text", text: `${wanted} is a folder of ${skill.name}; its files: ${capList(inFolder)}` }],
      };
    return failure(
      `No file ${JSON.stringify(cut(relative))} in the skill "${skill.name}". Its files: ${capList(skill.files.map((f) => f.path))}`,
    );
  }
  if (file.text === undefined) {
    if (file.size > MAX_SERVED_TOOL_TEXT_BYTES)
      return failure(
        `${file.path} is a ${file.size}-byte binary file, larger than ${MAX_SERVED_TOOL_TEXT_BYTES} bytes; read ${file.uri} as a resource instead.`,
      );
    return {
      content: [
        {
          type: "resource",
          resource: { uri: file.uri, mimeType: file.mimeType, blob: file.bytes!.toString("base64") },
        },
      ],
    };
  }
  const lines = lineRange(file.text, args["startLine"], args["endLine"]);
  if (typeof lines === "string") return failure(lines);
  const capped = capTextUtf8Bytes(
    lines.text,
    MAX_SERVED_TOOL_TEXT_BYTES,
    (kept, size) =>
      `[Cut at ${kept} of ${size} bytes: read on with startLine ${lines.first + countNewlines(lines.text.slice(0, kept))}.]`,
  );
  return { content: [{ type: "text", text: capped.text }] };
}

// The skill a tool call names: by name, by skill path (when names clash), or by its SKILL.md URI.
function findSkill(index: ServedSkillIndex, name: unknown): { skill: ServedSkill } | { error: string } {
  if (typeof name !== "string" || name === "" || name.length > MAX_ARG_CHARS)
    return { error: "name must be a non-empty string: a skill's name, as load_skill lists it" };
  const byUri = index.byUri.get(name);
  if (byUri !== undefined) return { skill: byUri };
  const named = index.byName.get(name) ?? [];
  if (named.length === 1) return { skill: named[0]! };
  if (named.length > 1)
    return {
      error: `Several skills are named "${name}"; name one by its path: ${named.map((s) => s.skillPath).join(", ")}`,
    };
  return {
    error: `No skill named ${JSON.stringify(cut(name))}. Skills: ${capList(index.skills.map((s) => toolName(index, s)))}`,
  };
}

// The name a tool call uses for a skill: its name, or its path when another skill has the same name.
function toolName(index: ServedSkillIndex, skill: ServedSkill): string {
  return (index.byName.get(skill.name)?.length ?? 0) > 1 ? skill.skillPath : skill.name;
}

function lineRange(text: string, start: unknown, end: unknown): { text: string; first: number } | string {
  const first = start === undefined ? 1 : start;
  const last = end === undefined ? Number.POSITIVE_INFINITY : end;
  if (typeof first !== "number" || !Number.isSafeInteger(first) || first < 1)
    return "startLine must be a whole number from 1";
  if (typeof last !== "number" || (last !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(last) || last < 1)))
    return "endLine must be a whole number from 1";
  if (last < first) return `endLine (${last}) is before startLine (${first})`;
  if (first === 1 && last === Number.POSITIVE_INFINITY) return { text, first };
  const lines = text.split("\n");
  if (first > lines.length) return `startLine ${first} is past the end (${lines.length} lines)`;
  return { text: lines.slice(first - 1, Math.min(lines.length, last)).join("\n"), first };
}

function capList(items: readonly string[]): string {
  const shown = items.slice(0, 50).join(", ");
  return items.length > 50 ? `${shown}, … (${items.length - 50} more)` : shown || "(none)";
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return fitUtf16(flat, MAX_DESCRIPTION_CHARS);
}

function cut(text: string): string {
  return ellipsizeUtf16(text, 200);
}

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
