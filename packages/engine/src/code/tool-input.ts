/**
 * The input schema of a code tool: a zod 4 schema or a JSON Schema object, compiled once into the JSON
 * Schema the model sees and a checker of the arguments it sends (zod `safeParse`; JSON Schema through
 * zod 4's `z.fromJSONSchema`). The one place that turns a tool's schema into a validator.
 */
import { SkillctxError } from "@skillctx/core";
import { zod } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import { ellipsizeUtf16, errorText } from "@skillctx/core/internal";
import type { ToolResult } from "../context-types.js";
import { normalizeArgs, toolInputSchema } from "../tool-kit/tool-args.js";
import { fail, quoted } from "../tool-kit/tool-result.js";
import type { JsonSchema, ZodLike } from "./skill-code.js";
import { cloneJson } from "@skillctx/core/internal";

/** A tool's input schema, ready: what the model sees, and the check of each call's arguments. */
export interface CompiledInput {
  /** JSON Schema of an object (no `$schema` key). */
  jsonSchema: JsonSchema;
  /** Checks and parses `args` (JSON text, `null` and `undefined` are read as the model means them). */
  parse(args: unknown): { ok: true; value: unknown } | { ok: false; message: string };
}

/** Most issues named in one "invalid arguments" result; the rest are counted. */
const MAX_ISSUES_SHOWN = 10;
/** Characters of one issue message shown. */
const MAX_ISSUE_CHARS = 300;

/**
 * Compiles `schema` (a zod 4 schema or a JSON Schema object whose `type` is `"object"`).
 *
 * @throws SkillctxError `SKILL_DEFINITION_INVALID` (naming `where`) for anything else: a zod 3 schema,
 * a schema of something other than an object, a type JSON Schema cannot express, a JSON Schema zod
 * cannot read (an unresolvable `$ref`, an unknown `type`).
 */
export function compileInputSchema(schema: unknown, where: string): CompiledInput {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw invalid(where, `inputSchema must be a zod schema or a JSON Schema object, got ${describe(schema)}`);
  }
  if (isZod4(schema)) return compileZod(schema, where);
  if (typeof (schema as { safeParse?: unknown }).safeParse === "function") {
    throw invalid(
      where,
      "inputSchema is not a zod 4 schema (zod 3 schemas have no JSON Schema form): use zod 4 or a JSON Schema object",
    );
  }
  return compileJsonSchema(schema as JsonSchema, where);
}

/**
 * A checker for a JSON Schema object (for tools whose schema is derived, such as typed script tools).
 *
 * @throws SkillctxError `SKILL_DEFINITION_INVALID` when zod cannot read the schema.
 */
export function compileJsonSchema(schema: JsonSchema, where: string): CompiledInput {
  const type = schema["type"];
  if (type !== undefined && type !== "object")
    throw invalid(where, `inputSchema must describe an object (type "object"), got type ${JSON.stringify(type)}`);
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = cloneJson<JsonSchema>({ ...schema, type: "object" });
  } catch (error) {
    throw invalid(where, `inputSchema is not JSON: ${errorText(error)}`);
  }
  delete jsonSchema["$schema"];
  let validator: ZodLike;
  try {
    validator = zod().fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw invalid(where, `inputSchema is not a JSON Schema zod can check: ${errorText(error)}`);
  }
  return { jsonSchema, parse: (args) => parseWith(validator, args) };
}

/** The error result of arguments that failed their check. */
export function invalidArguments(tool: string, message: string): ToolResult {
  return fail(`Invalid arguments for ${quoted(tool)}: ${message}`);
}

/** zod issues as one line: `path: message; ...`, at most {@link MAX_ISSUES_SHOWN}, each cut. */
export function issuesText(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const shown = issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => {
    const where = issue.path.length === 0 ? "" : `${issue.path.map((part) => String(part)).join(".")}: `;
    const text = `${where}${issue.message}`;
    return ellipsizeUtf16(text, MAX_ISSUE_CHARS);
  });
  const more = issues.length > MAX_ISSUES_SHOWN ? `; and ${issues.length - MAX_ISSUES_SHOWN} more` : "";
  return `${shown.join("; ")}${more}`;
}

// ---------------------------------------------------------------------------------------------

function compileZod(schema: object, where: string): CompiledInput {
  let json: JsonSchema;
  try {
    json = toolInputSchema(schema as z.ZodType);
  } catch (error) {
    throw invalid(where, `inputSchema has no JSON Schema form: ${errorText(error)}`);
  }
  if (json["type"] !== "object")
    throw invalid(
      where,
      `inputSchema must be an object schema (z.object(...)), got ${JSON.stringify(json["type"] ?? "a non-object schema")}`,
    );
  const validator = schema as ZodLike;
  return { jsonSchema: json, parse: (args) => parseWith(validator, args) };
}

function parseWith(validator: ZodLike, args: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  const input = normalizeArgs(args);
  if (!input.ok) return input;
  const parsed = validator.safeParse(input.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: issuesText(parsed.error.issues) };
}

function isZod4(schema: object): boolean {
  return "_zod" in schema && typeof (schema as { safeParse?: unknown }).safeParse === "function";
}

function invalid(where: string, message: string): SkillctxError {
  return new SkillctxError("SKILL_DEFINITION_INVALID", `${where}: ${message}`);
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
