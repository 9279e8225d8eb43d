/**
 * The tools of a programmatic skill (`defineSkill({ tools })`) as `CodeTool`s: arguments checked
 * before `execute`, the skill's state opened for the call and checked after it, and the return value
 * turned into a result the model can read. Nothing a tool does (throw, return a cycle, set a bad
 * state) escapes as an exception: each is an error result, and the conversation goes on.
 */
import type { Skill } from "@skillctx/core";
import { DEFAULT_MAX_SKILL_STATE_BYTES } from "../limits.js";
import { ellipsizeUtf16, errorText } from "@skillctx/core/internal";
import type { ToolResult } from "../context-types.js";
import { fail, quoted } from "../tool-kit/tool-result.js";
import { toJsonText } from "./json-value.js";
import type { CodeTool, CodeToolOutcome, CodeToolRunContext, SkillToolContext, SkillToolSpec } from "./skill-code.js";
import { skillRuntimeOf } from "./skill-code.js";
import { openState } from "./skill-state.js";
import { untilAborted } from "./abortable.js";
import { compileInputSchema, invalidArguments } from "./tool-input.js";
import type { CompiledInput } from "./tool-input.js";

/** Characters of a thrown error's message shown to the model. */
const MAX_ERROR_CHARS = 2_000;

const compiledInputs = new WeakMap<SkillToolSpec<any>, CompiledInput>();
const toolsBySkill = new WeakMap<Skill, { tools: CodeTool[]; problems: string[] }>();

/** Records the compiled input schema of a tool spec (`defineSkill` compiles each one when it checks it). */
export function rememberInput(spec: SkillToolSpec<any>, input: CompiledInput): void {
  compiledInputs.set(spec, input);
}

/**
 * The programmatic tools of `skill` (none for a skill without `SKILL_RUNTIME` tools), memoised per
 * skill, and the problems of tools left out (a runtime made by hand whose schema cannot be compiled).
 */
export function programmaticToolsOf(skill: Skill): { tools: CodeTool[]; problems: string[] } {
  let made = toolsBySkill.get(skill);
  if (made === undefined) {
    made = { tools: [], problems: [] };
    const specs = skillRuntimeOf(skill)?.tools;
    if (specs !== undefined) {
      for (const [name, spec] of Object.entries(specs)) {
        try {
          made.tools.push(programmaticTool(skill, name, spec));
        } catch (error) {
          made.problems.push(`tool ${quoted(name)} of "${skill.name}" is left out: ${errorText(error)}`);
        }
      }
    }
    toolsBySkill.set(skill, made);
  }
  return made;
}

/** A thrown value as one short line for the model. */
export function thrownText(error: unknown): string {
  let name = "";
  try {
    // The class of the error says what went wrong (TypeError, RangeError); plain Error adds nothing.
    if (error instanceof Error && typeof error.name === "string" && error.name !== "Error") name = `${error.name}: `;
  } catch {
    // A Proxy or a getter that throws: errorText still gives a text.
  }
  return ellipsizeUtf16(`${name}${errorText(error)}`, MAX_ERROR_CHARS);
}

// ---------------------------------------------------------------------------------------------

function programmaticTool(skill: Skill, name: string, spec: SkillToolSpec<any>): CodeTool {
  let input = compiledInputs.get(spec);
  if (input === undefined) {
    input = compileInputSchema(spec.inputSchema, `skill "${skill.name}": tools.${name}.inputSchema`);
    compiledInputs.set(spec, input);
  }
  const checked = input;
  return {
    name,
    localName: name,
    skill,
    description: typeof spec.description === "string" ? spec.description : "",
    inputSchema: checked.jsonSchema,
    kind: "programmatic",
    run: (args, context) => runProgrammatic(skill, name, spec, checked, args, context),
  };
}

async function runProgrammatic(
  skill: Skill,
  name: string,
  spec: SkillToolSpec<any>,
  input: CompiledInput,
  args: unknown,
  context: CodeToolRunContext,
): Promise<CodeToolOutcome> {
  let parsed: ReturnType<CompiledInput["parse"]>;
  try {
    parsed = input.parse(args);
  } catch (error) {
    return { result: invalidArguments(name, `the argument check threw: ${thrownText(error)}`) };
  }
  if (!parsed.ok) return { result: invalidArguments(name, parsed.message) };
  const state = openState(skill, context.readState, context.maxStateBytes ?? DEFAULT_MAX_SKILL_STATE_BYTES);
  const toolContext = {
    signal: context.signal,
    skill,
    state: state?.handle,
    callId: context.callId,
  } as SkillToolContext<any>;
  let output: unknown;
  try {
    // A tool that ignores its signal cannot hold the call (or close()) past an abort.
    output = await untilAborted(spec.execute(parsed.value, toolContext), context.signal);
  } catch (error) {
    await state?.finish();
    if (context.signal.aborted) throw error;
    return { result: fail(`The tool ${quoted(name)} of the skill "${skill.name}" failed: ${thrownText(error)}`) };
  }
  const finished = await state?.finish();
  if (finished !== undefined && !finished.ok)
    return { result: fail(`The tool ${quoted(name)} of the skill "${skill.name}" ran, but ${finished.message}`) };
  return { result: toToolResult(name, skill, output), state: finished?.change };
}

// What `execute` returned, as the model reads it: text, a ToolResult, or JSON text of a plain JSON value.
function toToolResult(name: string, skill: Skill, output: unknown): ToolResult {
  if (typeof output === "string") return { content: output };
  if (output === undefined) return { content: "" };
  try {
    if (typeof output === "object" && output !== null && typeof (output as ToolResult).content === "string") {
      const result = output as ToolResult;
      return result.isError === true ? { content: result.content, isError: true } : { content: result.content };
    }
  } catch {
    // A getter that throws: the value is checked as JSON below, which reports it.
  }
  const json = toJsonText(output);
  if (json.ok) return { content: json.text };
  return fail(
    `The tool ${quoted(name)} of the skill "${skill.name}" returned a value that is not JSON (${json.reason}), so its result is lost (a state it set is kept).`,
  );
}
