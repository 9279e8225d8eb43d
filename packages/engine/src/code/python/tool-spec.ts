/**
 * A script's `main()` signature (as read by the reader) → the tool's name, description and JSON Schema,
 * or the diagnostic that says why the script stays on `run_skill_script` only.
 */
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import type { JsonSchema } from "../skill-code.js";
import { allowsNull, annotationSchema, mergeUnion } from "./annotation-schema.js";
import { parseDocstring } from "./docstring.js";
import { MAX_PARAM_DESCRIPTION_CHARS, MAX_TOOL_DESCRIPTION_CHARS } from "../../limits.js";
import { fitUtf16 } from "@skillctx/core/internal";
import type { FileReading, ScriptParam } from "./reader.js";

/** A typed tool made from a script. */
export interface ScriptToolSpec {
  /** The script's stem, with characters tool names cannot hold replaced by `_` (at most 64). */
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Parameters annotated as tuples (their arrays reach `main()` as tuples). */
  tuples: string[];
}

/** Where a script is, for names and messages. */
export interface ScriptPlace {
  /** Absolute path (diagnostics). */
  file: string;
  /** `scripts/x.py` (messages). */
  shown: string;
  skill: string;
}

const RUN_INSTEAD = "it stays reachable through run_skill_script";

/** The tool of a parsed script, or why there is none. */
export function scriptToolSpec(
  reading: Extract<FileReading, { ok: true }>,
  place: ScriptPlace,
): { spec: ScriptToolSpec } | { diagnostic: Diagnostic } {
  const main = reading.main;
  const where = (line?: number) => ({ path: place.file, line });
  if (main === null) {
    return {
      diagnostic: diagnostic(
        "SCRIPT_NO_MAIN",
        "info",
        `${place.shown} defines no main(), so it is not a typed tool; ${RUN_INSTEAD}.`,
        where(),
      ),
    };
  }
  if ("tooMany" in main) {
    return {
      diagnostic: diagnostic(
        "SCRIPT_UNSUPPORTED_SIGNATURE",
        "warning",
        `${place.shown}: main() has ${main.tooMany} parameters, too many for a typed tool; ${RUN_INSTEAD}.`,
        where(main.line),
      ),
    };
  }
  if (main.decorators.length > 0) {
    const shown = main.decorators.map((d) => `@${d}`).join(" ");
    return {
      diagnostic: diagnostic(
        "SCRIPT_UNSUPPORTED_SIGNATURE",
        "warning",
        `${place.shown}: main() is decorated (${shown}), so calling it by keyword may not call the function written; ${RUN_INSTEAD}.`,
        where(main.line),
      ),
    };
  }
  if (main.params.length === 0 && main.returns === undefined) {
    return {
      diagnostic: diagnostic(
        "SCRIPT_UNTYPED_MAIN",
        "info",
        `${place.shown}: main() takes no parameters and has no return annotation (a command-line entry point), so it is not a typed tool; ${RUN_INSTEAD}. Annotate it (def main() -> str:) to make it one.`,
        where(main.line),
      ),
    };
  }

  const docs = parseDocstring(main.doc);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const tuples: string[] = [];
  const problems: { line: number; text: string }[] = [];
  for (const param of main.params) {
    const built = paramSchema(param, docs.params.get(param.name));
    if ("problem" in built) {
      problems.push({ line: param.line, text: built.problem });
      continue;
    }
    properties[param.name] = built.schema;
    if (built.required) required.push(param.name);
    if (built.tuple) tuples.push(param.name);
  }
  if (problems.length > 0) {
    return {
      diagnostic: diagnostic(
        "SCRIPT_UNSUPPORTED_TYPE",
        "warning",
        `${place.shown}: main() is not a typed tool: ${problems.map((p) => p.text).join("; ")}. ${capitalised(RUN_INSTEAD)}.`,
        where(problems[0]!.line),
      ),
    };
  }
  const inputSchema: JsonSchema = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = required;
  const summary =
    docs.summary ??
    parseDocstring(reading.moduleDoc).summary ??
    `Calls main() of ${place.shown} in the skill "${place.skill}".`;
  return {
    spec: { name: toolName(place.shown), description: cut(summary, MAX_TOOL_DESCRIPTION_CHARS), inputSchema, tuples },
  };
}

function paramSchema(
  param: ScriptParam,
  doc: string | undefined,
): { schema: JsonSchema; required: boolean; tuple: boolean } | { problem: string } {
  const shown = param.text === undefined ? param.name : `${param.name}: ${param.text}`;
  switch (param.kind) {
    case "var_positional":
      return { problem: `*${param.name} (extra positional arguments) cannot be named in a JSON object` };
    case "var_keyword":
      return { problem: `**${param.name} (arbitrary keyword arguments) has no fixed schema` };
    case "positional_only":
      return { problem: `${shown} is positional-only (before "/"), but main() is called with keyword arguments` };
    default:
  }
  if (param.annotation === undefined) return { problem: `parameter ${param.name} has no type annotation` };
  const result = annotationSchema(param.annotation);
  if ("unsupported" in result) {
    const part = result.unsupported === param.text ? "" : `: ${result.unsupported}`;
    return { problem: `parameter ${shown}${part} has no JSON Schema` };
  }
  let schema: JsonSchema = { ...result.schema };
  const description = result.description ?? doc;
  const dflt = param.default;
  if (dflt !== undefined && "json" in dflt) {
    // `x: int = None` accepts None although the annotation does not say so.
    if (dflt.json === null && !allowsNull(schema)) schema = mergeUnion([schema, { type: "null" }]);
    schema.default = dflt.json;
  }
  const notes = [description, dflt !== undefined && "expr" in dflt ? `Default: ${dflt.expr}.` : undefined].filter(
    (part) => part !== undefined && part !== "",
  );
  if (notes.length > 0) schema.description = cut(notes.join(" "), MAX_PARAM_DESCRIPTION_CHARS);
  return { schema, required: dflt === undefined, tuple: result.tuple === true };
}

/** The tool name of `scripts/<stem>.py`: the stem, limited to `[A-Za-z0-9_-]` and 64 characters. */
export function toolName(shown: string): string {
  const stem = shown.replace(/^.*\//, "").replace(/\.py$/i, "");
  return (stem.replace(/[^A-Za-z0-9_-]/g, "_") || "script").slice(0, 64);
}

function cut(text: string, max: number): string {
  return fitUtf16(text, max);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
