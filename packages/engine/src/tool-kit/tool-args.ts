import { zod, type Zod } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import type { ToolResult } from "../context-types.js";
import { fail } from "./tool-result.js";
import { decodeToolArguments } from "@skillctx/core/internal";

/** The outcome of checking a model's tool arguments. */
export type ParsedArgs<T> = { ok: true; value: T } | { ok: false; result: ToolResult };

/**
 * Checks `args` against `schema`. Models send JSON text, `null` or nothing at times: a JSON string is
 * parsed first and a missing value counts as `{}`. Failures become an error result naming each bad field.
 */
export function parseToolArgs<T>(tool: string, schema: z.ZodType<T>, args: unknown): ParsedArgs<T> {
  const input = normalizeArgs(args);
  if (!input.ok) return { ok: false, result: fail(`Invalid arguments for ${tool}: ${input.message}`) };
  const parsed = schema.safeParse(input.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
    return `${where}${issue.message}`;
  });
  return { ok: false, result: fail(`Invalid arguments for ${tool}: ${problems.join("; ")}`) };
}

/** Arguments as an object: JSON text is parsed, `undefined` and `null` become `{}`. */
export function normalizeArgs(args: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  const decoded = decodeToolArguments(args, { emptyAsObject: true });
  return decoded.ok ? decoded : { ok: false, message: "arguments must be a JSON object" };
}

/** The JSON Schema of a zod object schema, as tool definitions carry it (no `$schema` key). */
export function toolInputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = zod().toJSONSchema(schema, { target: "draft-7", io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return stripSafeIntegerBounds(json) as Record<string, unknown>;
}

// zod writes Number.MAX_SAFE_INTEGER as the maximum of every integer; it tells the model nothing.
function stripSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSafeIntegerBounds);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (
      (key === "maximum" && inner === Number.MAX_SAFE_INTEGER) ||
      (key === "minimum" && inner === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] = stripSafeIntegerBounds(inner);
  }
  return out;
}

/** A 1-based line number; numeric strings are accepted (models send them). */
export function lineNumber(z: Zod) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z.number().int().min(1),
  );
}

/** A skill name argument: surrounding white space is dropped before the lookup. */
export function skillName(z: Zod) {
  return z.string().trim().min(1);
}
