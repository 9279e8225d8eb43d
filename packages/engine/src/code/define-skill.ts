/**
 * `defineSkill`: a skill written in code, with tools that run in the host process and an optional
 * state. The definition is checked when it is made, so a mistake throws at the line that wrote it
 * instead of surfacing as a tool error in some later conversation.
 */
import { SkillctxError } from "@skillctx/core";
import { SKILL_RUNTIME } from "@skillctx/core/internal";
import type { Skill } from "@skillctx/core";
import { checkName, ellipsizeUtf16, errorText, headUtf16, skillSchemas } from "@skillctx/core/internal";
import * as path from "node:path";
import { jsonIssue } from "./json-value.js";
import type { SkillRuntime, SkillStateSpec, SkillToolSpec } from "./skill-code.js";
import { compileInputSchema, issuesText } from "./tool-input.js";
import { rememberInput } from "./programmatic-tools.js";
import { cloneJson } from "@skillctx/core/internal";
import { isZod3Schema, zod3Error } from "./zod-version.js";

/** What {@link defineSkill} takes. */
export interface SkillDefinition<S = undefined> {
  /** The skill's name: lowercase letters, digits and hyphens, at most 64 characters (the Agent Skills rule). */
  name: string;
  /** What the skill does and when to use it: the catalog shows this. */
  description: string;
  /** The body the model reads when it loads the skill (markdown). */
  instructions: string;
  /**
   * Tools offered while the skill is active (`skillCodeTools: "always"`: always), by name: letters,
   * digits, `_` and `-`, at most 64 characters. A name another tool has is offered as `<skill>__<name>`.
   */
  tools?: Record<string, SkillToolSpec<S>>;
  /** The skill's state: a zod schema, an initial value and a namespace in `ctx.state`. */
  state?: SkillStateSpec<S>;
  /** The model a host should run the skill with (reported on activation; `execute_skill` uses it). */
  model?: string;
  /** Tools the model may use while the skill is active (the skill's own tools are always allowed). */
  allowedTools?: string[];
  /** Files of `dir` that `read_skill_resource` may read, relative to it. */
  resources?: string[];
  /** An absolute folder of files (references, scripts) that belongs to the skill. */
  dir?: string;
}

/** Longest state namespace. */
const MAX_NAMESPACE_CHARS = 128;
/** Tool names: what every model API accepts. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A programmatic skill: listed in the catalog (on demand), loaded with `load_skill`, whose `tools` the
 * model can call while it is active and whose `state` (zod schema) its tools read and update. Use it
 * anywhere a skill source goes (`skills` option, `setSkills`).
 *
 * @throws SkillctxError `SKILL_DEFINITION_INVALID` naming the field: a bad name or description, a tool
 * without `execute`, a tool name models reject, an input schema that is neither zod 4 nor a JSON Schema
 * object, a state without a zod schema, an `initial` state that fails its schema or is not plain JSON.
 * @throws SkillctxError `ZOD_VERSION_UNSUPPORTED` for a zod 3 schema (an input or state schema): zod 4 is
 * a peer dependency of `skillctx`; the message and `data.zodVersion` name the zod version the project has.
 * @example
 * const counter = defineSkill({
 *   name: "counter",
 *   description: "Counts things. Use when the user asks to count.",
 *   instructions: "Call `increment` for each thing to count.",
 *   state: { schema: z.object({ count: z.number().int() }), initial: { count: 0 } },
 *   tools: {
 *     increment: {
 *       description: "Adds n to the count",
 *       inputSchema: z.object({ n: z.number().int().default(1) }),
 *       execute: ({ n }, { state }) => {
 *         state.update((s) => ({ count: s.count + n }));
 *         return state.get();
 *       },
 *     },
 *   },
 * });
 * const ctx = await AgentContext.create({ cwd, skills: [counter] });
 */
export function defineSkill<S = undefined>(definition: SkillDefinition<S>): Skill {
  if (typeof definition !== "object" || definition === null)
    throw invalid("(unnamed)", "definition", "defineSkill needs an object");
  const name = checkSkillName(definition.name);
  const where = (field: string) => ({ name, field });
  if (typeof definition.description !== "string" || definition.description.trim() === "")
    throw invalid(name, "description", "must be a non-empty string");
  if (typeof definition.instructions !== "string")
    throw invalid(name, "instructions", "must be a string (the skill's body)");
  optionalString(definition.model, where("model"));
  optionalStrings(definition.allowedTools, where("allowedTools"));
  optionalStrings(definition.resources, where("resources"));
  if (definition.dir !== undefined && (typeof definition.dir !== "string" || !path.isAbsolute(definition.dir)))
    throw invalid(name, "dir", "must be an absolute path");

  const runtime: SkillRuntime = {};
  if (definition.tools !== undefined) runtime.tools = checkTools(name, definition.tools);
  if (definition.state !== undefined) runtime.state = checkStateSpec(name, definition.state);

  const skill = skillSchemas().SkillSchema.parse({
    name,
    description: definition.description,
    content: definition.instructions,
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "on-demand" },
    ...(definition.dir === undefined ? {} : { dir: definition.dir }),
    ...(definition.model === undefined ? {} : { model: definition.model }),
    ...(definition.allowedTools === undefined ? {} : { allowedTools: [...definition.allowedTools] }),
    ...(definition.resources === undefined ? {} : { resources: [...definition.resources] }),
  });
  Object.defineProperty(skill, SKILL_RUNTIME, { value: Object.freeze(runtime), enumerable: true });
  return skill;
}

// ---------------------------------------------------------------------------------------------

function checkSkillName(value: unknown): string {
  const found = checkName(value, undefined);
  if (found.length > 0)
    throw invalid(
      typeof value === "string" ? headUtf16(value, 100) : "(unnamed)",
      "name",
      found.map((f) => f.message).join("; "),
    );
  return value as string;
}

function checkTools(skill: string, tools: unknown): Record<string, SkillToolSpec<any>> {
  if (typeof tools !== "object" || tools === null || Array.isArray(tools))
    throw invalid(skill, "tools", "must be an object mapping tool names to { description, inputSchema, execute }");
  // No prototype: a tool named "__proto__" or "constructor" is a tool like any other.
  const checked = Object.create(null) as Record<string, SkillToolSpec<any>>;
  for (const [toolName, spec] of Object.entries(tools)) {
    const field = `tools.${ellipsizeUtf16(toolName, 100)}`;
    if (!TOOL_NAME.test(toolName))
      throw invalid(skill, field, "a tool name must be 1 to 64 letters, digits, '_' or '-'");
    if (typeof spec !== "object" || spec === null)
      throw invalid(skill, field, "must be { description, inputSchema, execute }");
    const { description, inputSchema, execute } = spec as Partial<SkillToolSpec>;
    if (isZod3Schema(inputSchema)) throw zod3Error(skill, `${field}.inputSchema`);
    if (typeof execute !== "function") throw invalid(skill, `${field}.execute`, "must be a function");
    if (description !== undefined && typeof description !== "string")
      throw invalid(skill, `${field}.description`, "must be a string");
    const input = compileInputSchema(inputSchema, `skill "${skill}": ${field}.inputSchema`);
    const copy: SkillToolSpec<any> = { description: description ?? "", inputSchema: inputSchema!, execute };
    rememberInput(copy, input);
    checked[toolName] = copy;
  }
  return checked;
}

function checkStateSpec(skill: string, state: unknown): SkillStateSpec<any> {
  if (typeof state !== "object" || state === null)
    throw invalid(skill, "state", "must be { schema, initial?, namespace? }");
  const { schema, initial, namespace } = state as Partial<SkillStateSpec>;
  if (isZod3Schema(schema)) throw zod3Error(skill, "state.schema");
  if (typeof (schema as { safeParse?: unknown } | undefined)?.safeParse !== "function")
    throw invalid(skill, "state.schema", "must be a zod schema");
  if (
    namespace !== undefined &&
    (typeof namespace !== "string" ||
      namespace === "" ||
      namespace.length > MAX_NAMESPACE_CHARS ||
      /\p{Cc}/u.test(namespace))
  ) {
    throw invalid(
      skill,
      "state.namespace",
      `must be 1 to ${MAX_NAMESPACE_CHARS} characters without control characters`,
    );
  }
  if (initial !== undefined) {
    const notJson = jsonIssue(initial);
    if (notJson !== undefined) throw invalid(skill, "state.initial", `must be plain JSON: ${notJson}`);
    let parsed: ReturnType<SkillStateSpec["schema"]["safeParse"]>;
    try {
      parsed = schema!.safeParse(initial);
    } catch (error) {
      throw invalid(skill, "state.initial", `could not be checked: the state schema threw ${errorText(error)}`);
    }
    if (!parsed.success)
      throw invalid(skill, "state.initial", `fails the state schema: ${issuesText(parsed.error.issues)}`);
  }
  return {
    schema: schema!,
    ...(initial === undefined ? {} : { initial: cloneJson(initial) as unknown }),
    ...(namespace === undefined ? {} : { namespace }),
  };
}

function optionalString(value: unknown, at: { name: string; field: string }): void {
  if (value !== undefined && typeof value !== "string") throw invalid(at.name, at.field, "must be a string");
}

function optionalStrings(value: unknown, at: { name: string; field: string }): void {
  if (value !== undefined && (!Array.isArray(value) || value.some((item) => typeof item !== "string")))
    throw invalid(at.name, at.field, "must be an array of strings");
}

function invalid(skill: string, field: string, message: string): SkillctxError {
  return new SkillctxError("SKILL_DEFINITION_INVALID", `defineSkill "${skill}": ${field} ${message}`, {
    data: { skill, field },
  });
}
