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

export type SkillInput = z.infer<Schemas["SkillInputSchema"]>;
export type Trigger = z.infer<Schemas["TriggerSchema"]>;
export type TriggerType = Trigger["type"];
export type SkillScope = z.infer<Schemas["SkillScopeSchema"]>;
export type SkillFormat = z.infer<Schemas["SkillFormatSchema"]>;
export type SkillSource = z.infer<Schemas["SkillSourceSchema"]>;
/**
 * One skill, whatever format it came from: the output of `SkillSchema`. Declared as an interface that
 * extends the inferred type (same members, same meaning) so that TypeScript, TypeDoc and the API report
 * name it `Skill`: an alias of `z.infer<...>` has no declaration of its own and prints as its members
 * (TypeScript names only a type with a declaration behind it; see docs/decisions.md, "Named types").
 */
export interface Skill extends z.infer<Schemas["SkillSchema"]> {}
/** What callers may pass where a Skill is expected (defaults filled in by the schema); an interface for the same reason as {@link Skill}. */
export interface SkillInit extends z.input<Schemas["SkillSchema"]> {}

/**
 * The slot where the host's runtime data of a programmatic skill lives (tools, state: see skillctx's
 * `defineSkill`). Core never reads it; it only keeps it on the skill when a Skill object is loaded,
 * so a skill made in code keeps its code through discovery. Not part of the JSON form of a skill.
 */
export const SKILL_RUNTIME: unique symbol = Symbol.for("skillctx.skill-runtime");
