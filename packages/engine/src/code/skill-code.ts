/**
 * The runtime part of a skill that brings code: in-process tools (`defineSkill`), typed tools made
 * from its Python scripts, and per-skill state. A leaf module of shared types: `code/define-skill.ts`
 * makes them, `code/code-tools.ts` offers and runs them, `code/script-tools.ts` derives script tools,
 * `tools/execute-skill.ts` hands them to a sub-agent.
 */
import { SKILL_RUNTIME } from "@skillctx/core/internal";
import type { Skill } from "@skillctx/core";
import type { Operation } from "fast-json-patch";
import type { ToolResult } from "../context-types.js";

/** JSON Schema of a tool's input (an object schema). */
export type JsonSchema = Record<string, unknown>;

/** A schema with zod's `safeParse` (zod 3 or 4); JSON Schema is taken as is. */
export interface ZodLike<T = unknown> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** Read and write access to a skill's state inside one tool call. */
export interface SkillStateHandle<S = unknown> {
  /** The state now (a copy: changing it does nothing until `set`). */
  get(): S;
  /** Replaces the state. Validated against the skill's schema when the call ends; an invalid state is rejected. */
  set(next: S): void;
  /** `set(update(get()))`. */
  update(update: (current: S) => S): void;
}

/** What a skill's tool gets beside its arguments. */
export interface SkillToolContext<S = unknown> {
  signal: AbortSignal;
  skill: Skill;
  /** The skill's state; undefined when the skill declares none. */
  state: S extends undefined ? undefined : SkillStateHandle<S>;
  /** Unique per call in this context (pairs with `tool.called` / `tool.finished` events). */
  callId: string;
}

/** What a skill tool's `execute` may return: text, a `ToolResult`, or any JSON value (sent as JSON text). */
export type SkillToolOutput = string | ToolResult | unknown;

/** One tool of a programmatic skill. */
export interface SkillToolSpec<S = unknown> {
  description: string;
  /** A zod schema or a JSON Schema object; arguments are validated before `execute`. */
  inputSchema: ZodLike | JsonSchema;
  execute(args: any, context: SkillToolContext<S>): Promise<SkillToolOutput> | SkillToolOutput;
}

/** A skill's state declaration. */
export interface SkillStateSpec<S = unknown> {
  /** A zod schema the state must satisfy after every call. */
  schema: ZodLike<S>;
  /** The state before any call. @default the schema's parse of `{}` */
  initial?: S;
  /** Key in `ctx.state` and `ctx.skillState(namespace)`. @default the skill's name */
  namespace?: string;
}

/** The runtime data kept on a skill in the `SKILL_RUNTIME` slot. */
export interface SkillRuntime {
  tools?: Record<string, SkillToolSpec<any>>;
  state?: SkillStateSpec<any>;
}

/**
 * A tool as the engine offers and runs it: a programmatic skill's tool or a typed script tool,
 * already resolved to JSON Schema, with its final (possibly namespaced) name.
 */
export interface CodeTool {
  /** The name the model calls (namespaced `<skill>__<tool>` when it clashes). */
  name: string;
  /** The tool's own name in its skill. */
  localName: string;
  skill: Skill;
  description: string;
  /** JSON Schema (from zod through `z.toJSONSchema`, or as given). */
  inputSchema: JsonSchema;
  kind: "programmatic" | "script";
  /** Validates and runs the call; never throws for bad input (error results). */
  run(args: unknown, context: CodeToolRunContext): Promise<CodeToolOutcome>;
}

/** What the engine gives a code tool's run. */
export interface CodeToolRunContext {
  signal: AbortSignal;
  callId: string;
  /** Reads the skill's state in the conversation (undefined: none yet). */
  readState(namespace: string): unknown;
  /** UTF-8 bytes the skill's state may take as JSON (`tools.skillTools.maxSkillStateBytes`). @default 1048576 */
  maxStateBytes?: number | undefined;
}

/** The result of a code tool, with the state it leaves (validated) when it changed it. */
export interface CodeToolOutcome {
  result: ToolResult;
  /** The new state, when the call changed it and the schema accepted it. */
  state?: { namespace: string; value: unknown; patch: Operation[] } | undefined;
}

/** The runtime data of a skill made by `defineSkill`, or undefined. */
export function skillRuntimeOf(skill: Skill): SkillRuntime | undefined {
  return (skill as { [SKILL_RUNTIME]?: SkillRuntime })[SKILL_RUNTIME];
}

/** The namespace of a skill's state, or undefined when it declares none. */
export function stateNamespaceOf(skill: Skill): string | undefined {
  const state = skillRuntimeOf(skill)?.state;
  return state === undefined ? undefined : (state.namespace ?? skill.name);
}
