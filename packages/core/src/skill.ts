import type { z } from "./zod-lib.js";
import { lazySchemas } from "./zod-lib.js";

/**
 * The Skill schemas, built on the first call (zod loads then; importing @skillctx/core does not load it).
 * The same objects are exported by `@skillctx/core/schemas`.
 */
export const skillSchemas = lazySchemas((z) => {
  /** An input of a task skill (OpenHands `inputs:`). */
  const SkillInputSchema = z.object({
    name: z.string().min(1),
    description: z.string().default(""),
    required: z.boolean().optional(),
    default: z.string().optional(),
  });

  /** How a skill enters the context. Tagged on `type`. */
  const TriggerSchema = z.discriminatedUnion("type", [
    /** Injected into the system prompt every step (repository guidance). */
    z.object({ type: z.literal("always") }),
    /** Attached to the user message that mentions one of the keywords. */
    z.object({ type: z.literal("keyword"), keywords: z.array(z.string().min(1)).min(1) }),
    /** A keyword skill with inputs; `/<name>` is always one of its keywords. */
    z.object({
      type: z.literal("task"),
      keywords: z.array(z.string().min(1)).min(1),
      inputs: z.array(SkillInputSchema),
    }),
    /** Attached to the tool result of a call that touched a file matching a glob. */
    z.object({
      type: z.literal("path"),
      globs: z.array(z.string().min(1)).min(1),
      /**
       * The absolute folder the globs are relative to, when it is not cwd: a rule of a folder above cwd
       * whose globs name sibling folders (`packages/web/**` from cwd `packages/api`), which the agent
       * can still edit. Absent: cwd.
       */
      base: z.string().min(1).optional(),
    }),
    /** Listed in the catalog; the model loads it with a tool (Agent Skills default). */
    z.object({ type: z.literal("on-demand") }),
    /**
     * Invoked by the user only, never by the model and never listed: a command file (`.claude/commands`,
     * `.cursor/commands`, `.github/prompts`) run as `/<name>`, or a Cursor manual rule mentioned as `@<name>`.
     */
    z.object({ type: z.literal("command"), prefix: z.enum(["/", "@"]).default("/") }),
  ]);

  /**
   * Where a skill came from: the repository, the user's folders, the host's code, or a remote source
   * (an MCP server, a git repository, a well-known URL), whose `source.origin` names it.
   */
  const SkillScopeSchema = z.enum(["project", "user", "programmatic", "remote"]);

  /** The file format a skill was read from. */
  const SkillFormatSchema = z.enum([
    "skill-md", // Agent Skills SKILL.md
    "legacy", // OpenHands skill / microagent .md
    "guidance", // raw repository guidance (AGENTS.md, CLAUDE.md, .cursorrules, ...)
    "cursor-mdc", // .cursor/rules/*.mdc
    "copilot-instructions", // .github/instructions/*.instructions.md
    "command", // a user command file: .claude/commands, .cursor/commands, .github/prompts
    "inline", // a Skill object given in code
  ]);

  const SkillSourceSchema = z.object({
    kind: z.enum(["file", "inline", "compat"]),
    path: z.string().optional(),
    format: SkillFormatSchema,
    scope: SkillScopeSchema,
    /**
     * For a remote skill: the host-assigned name of its source (the MCP server's name, a git or URL
     * source's `name`). `trust.remote` lists the origins whose commands, scripts and servers may run.
     */
    origin: z.string().optional(),
  });

  /** One skill, whatever format it came from. */
  const SkillSchema = z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** The markdown body. Skills from `loadSkills` read it lazily on first access. */
    content: z.string(),
    source: SkillSourceSchema,
    /** The skill's root folder, against which resources and scripts resolve. */
    dir: z.string().optional(),
    trigger: TriggerSchema,
    inputs: z.array(SkillInputSchema).optional(),
    allowedTools: z.array(z.string()).optional(),
    /** When present, the only files `read_skill_resource` may read (relative to `dir`). */
    resources: z.array(z.string()).optional(),
    /** MCP servers the skill declares, as written; `@skillctx/mcp-bridge` validates them. */
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    license: z.string().optional(),
    compatibility: z.string().optional(),
    metadata: z.record(z.string(), z.string()).default({}),
    /** Claude Code `disable-model-invocation` (Codex `policy.allow_implicit_invocation: false`): not in the catalog, not loadable by the model. */
    disableModelInvocation: z.boolean().optional(),
    /** Claude Code `user-invocable`: `false` keeps the skill out of `/<name>` invocation (it stays in the catalog). */
    userInvocable: z.boolean().optional(),
    /** Claude Code `argument-hint`, shown to the user (`skillctx list`). */
    argumentHint: z.string().optional(),
    /** Claude Code `arguments`: names of positional arguments, usable as `$name` in the body. */
    argumentNames: z.array(z.string()).optional(),
    /** Claude Code `when_to_use`, appended to the description in the catalog. */
    whenToUse: z.string().optional(),
    /** Claude Code `model`, `effort`, `context` (`fork`) and `agent`: kept for the host, reported on activation. */
    model: z.string().optional(),
    effort: z.string().optional(),
    context: z.string().optional(),
    agent: z.string().optional(),
    /** Frontmatter fields skillctx does not know, kept as written. */
    extra: z.record(z.string(), z.unknown()).optional(),
  });
  return { SkillInputSchema, TriggerSchema, SkillScopeSchema, SkillFormatSchema, SkillSourceSchema, SkillSchema };
});

type Schemas = ReturnType<typeof skillSchemas>;
type TriggerOutput = z.infer<Schemas["TriggerSchema"]>;
type TriggerInput = z.input<Schemas["TriggerSchema"]>;

/*
 * The types of the schemas are declared as interfaces that extend the inferred types (the same members,
 * still derived from the schema), and the unions as unions of such interfaces, so that TypeScript,
 * TypeDoc and the API report name them where they are used: an alias of `z.infer<...>` has no declaration
 * of its own and prints as its members (see docs/decisions.md, "Named types").
 */

/** An input of a task skill (OpenHands `inputs:`). */
export interface SkillInput extends z.infer<Schemas["SkillInputSchema"]> {}
/** An input of a task skill as given in code: `description` may be left out (it defaults to ""). */
export interface SkillInputInit extends z.input<Schemas["SkillInputSchema"]> {}

/** Injected into the system prompt every step (repository guidance). */
export interface AlwaysTrigger extends Extract<TriggerOutput, { type: "always" }> {}
/** Attached to the user message that mentions one of the keywords. */
export interface KeywordTrigger extends Extract<TriggerOutput, { type: "keyword" }> {}
/** A keyword skill with inputs; `/<name>` is always one of its keywords. */
export interface TaskTrigger extends Extract<TriggerOutput, { type: "task" }> {
  inputs: SkillInput[];
}
/** Attached to the tool result of a call that touched a file matching a glob (relative to `base`, else cwd). */
export interface PathTrigger extends Extract<TriggerOutput, { type: "path" }> {}
/** Listed in the catalog; the model loads it with a tool (Agent Skills default). */
export interface OnDemandTrigger extends Extract<TriggerOutput, { type: "on-demand" }> {}
/** Invoked by the user only, as `/<name>` (a command file) or `@<name>` (a Cursor manual rule); never listed. */
export interface CommandTrigger extends Extract<TriggerOutput, { type: "command" }> {}
/** How a skill enters the context, tagged on `type`. */
export type Trigger = AlwaysTrigger | KeywordTrigger | TaskTrigger | PathTrigger | OnDemandTrigger | CommandTrigger;

/** A task trigger as given in code: its inputs' descriptions may be left out. */
export interface TaskTriggerInit extends Extract<TriggerInput, { type: "task" }> {
  inputs: SkillInputInit[];
}
/** A command trigger as given in code: `prefix` may be left out (it defaults to "/"). */
export interface CommandTriggerInit extends Extract<TriggerInput, { type: "command" }> {}
/** A trigger as given in code (defaults filled in by the schema). */
export type TriggerInit =
  | AlwaysTrigger
  | KeywordTrigger
  | TaskTriggerInit
  | PathTrigger
  | OnDemandTrigger
  | CommandTriggerInit;

export type TriggerType = Trigger["type"];
export type SkillScope = z.infer<Schemas["SkillScopeSchema"]>;
export type SkillFormat = z.infer<Schemas["SkillFormatSchema"]>;
/**
 * Where a skill came from: the repository, the user's folders, the host's code, or a remote source
 * (an MCP server, a git repository, a well-known URL), whose `origin` names it.
 */
export interface SkillSource extends z.infer<Schemas["SkillSourceSchema"]> {}

/** One skill, whatever format it came from: the output of `SkillSchema`. */
export interface Skill extends z.infer<Schemas["SkillSchema"]> {
  source: SkillSource;
  trigger: Trigger;
  inputs?: SkillInput[] | undefined;
}
/** What callers may pass where a Skill is expected (defaults filled in by the schema). */
export interface SkillInit extends z.input<Schemas["SkillSchema"]> {
  source: SkillSource;
  trigger: TriggerInit;
  inputs?: SkillInputInit[] | undefined;
}

// The named unions are the schema's, member for member: each assignment fails to compile when they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const triggersMatch: [Same<Trigger, TriggerOutput>, Same<TriggerInit, TriggerInput>] = [true, true];
void triggersMatch;

/**
 * The slot where the host's runtime data of a programmatic skill lives (tools, state: see skillctx's
 * `defineSkill`). Core never reads it; it only keeps it on the skill when a Skill object is loaded,
 * so a skill made in code keeps its code through discovery. Not part of the JSON form of a skill.
 */
export const SKILL_RUNTIME: unique symbol = Symbol.for("skillctx.skill-runtime");
