import { SkillctxError } from "@skillctx/core";
import { lazySchemas } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import { errorText } from "@skillctx/core/internal";

/** The context state schemas, built on the first call (zod loads then). `ContextStateSchema` is also exported by `skillctx/schemas`. */
export const stateSchemas = lazySchemas((z) => {
  /** Text attached to one message, frozen at first activation. */
  const AttachmentSchema = z.object({
    skill: z.string(),
    /**
     * Why the text was attached: a trigger that fired, a user command (`/name`, `ctx.invoke`), a body
     * re-attached after the host condensed its first message away, or a catalog note (skills found later).
     * `update`: the note of skills added, changed and removed by a reload (hot reload, `catalogUpdates: "append"`; `skill` is "").
     * `suggest`: a note naming skills that match a user message (`catalog.search.suggest`; `skill` is "", `match` the names, space-separated).
     */
    trigger: z.enum(["keyword", "task", "path", "command", "reattach", "catalog", "update", "suggest"]),
    /** The keyword or path that fired it. */
    match: z.string(),
    /** Fingerprint of the message it is attached to. */
    fingerprint: z.string(),
    /** The exact bytes appended to that message. */
    text: z.string(),
  });

  /**
   * Where the body of a skill that must survive condensation is now: a skill the user invoked
   * (`/name`, `@name`, `ctx.invoke`) or the model loaded and has not unloaded. When that message leaves
   * the conversation while later messages stay (the host condensed it away), the body is attached again
   * to the newest message (trigger `reattach`), which becomes its carrier.
   */
  const CarrierSchema = z.object({
    skill: z.string(),
    /** `command`: invoked by the user; `load`: loaded by the model (the active skill). */
    kind: z.enum(["command", "load"]),
    /** Fingerprint of the message that carries the body; absent for a load whose tool result was not seen yet. */
    fingerprint: z.string().optional(),
    /** The invoking text (`/deploy staging`), or `load`. */
    match: z.string(),
    /**
     * command: the body as attached (rendered, arguments put in, capped); load: absent (the frozen
     * `load:<name>`), or the body as loaded when the skill changed on disk since (hot reload) and the
     * model has not loaded it again.
     */
    body: z.string().optional(),
  });

  /** What the model was told of the skills: the `system` first sent and, by skill name, each skill's fingerprint. */
  const SentCatalogSchema = z.object({ system: z.string(), skills: z.record(z.string(), z.string()) });

  /**
   * Everything a context needs to resume a conversation: plain JSON.
   * Pass it back as `AgentContext.create({ ..., state })`.
   */
  const ContextStateSchema = z.object({
    version: z.literal(1),
    attachments: z.array(AttachmentSchema),
    /** Fingerprints of the user and tool messages already scanned for triggers. */
    scanned: z.array(z.string()),
    /** Frozen renderings, keyed `guidance:<name>` or `load:<name>`. */
    rendered: z.record(z.string(), z.string()),
    /** The skill the model loaded last and has not unloaded. */
    activeSkill: z.string().optional(),
    /** The conversation's session id (`${CLAUDE_SESSION_ID}` in skill bodies): the `conversation.sessionId` option, else generated once. */
    sessionId: z.string().optional(),
    /** Invoked and loaded skills whose bodies survive condensation, most recently activated last. */
    carriers: z.array(CarrierSchema).optional(),
    /** Nested skill folders revealed by a tool call (`packages/x/.claude/skills`), relative to the project root. */
    nested: z.array(z.string()).optional(),
    /** Per-skill state of skills that declare one (`defineSkill({ state })`), by namespace: JSON values. */
    skillStates: z.record(z.string(), z.json()).optional(),
    /**
     * Under `catalog.updates: "append"`: the `system` first sent, and a fingerprint of each skill the
     * model has been told of (in that `system` or by a later `<skills_update>` note). A context resumed
     * from this state sends the same `system` again and notes what changed since.
     */
    told: SentCatalogSchema.optional(),
  });

  return { AttachmentSchema, CarrierSchema, SentCatalogSchema, ContextStateSchema };
});

type Schemas = ReturnType<typeof stateSchemas>;

// Interfaces over the inferred types, so that TypeDoc, editors and the API report name them where they are
// used (docs/decisions.md, "Named types").

/** Text attached to one message, frozen at first activation. */
export interface Attachment extends z.infer<Schemas["AttachmentSchema"]> {}
/** Where the body of a skill that must survive condensation is now (see `ContextState.carriers`). */
export interface Carrier extends z.infer<Schemas["CarrierSchema"]> {}
/** What the model was told of the skills: the `system` first sent and each skill's fingerprint. */
export interface SentCatalog extends z.infer<Schemas["SentCatalogSchema"]> {}
/** Everything a context needs to resume a conversation: plain JSON. Pass it back as `conversation.state`. */
export interface ContextState extends z.infer<Schemas["ContextStateSchema"]> {
  attachments: Attachment[];
  carriers?: Carrier[] | undefined;
  told?: SentCatalog | undefined;
}

export function emptyState(): ContextState {
  return { version: 1, attachments: [], scanned: [], rendered: {} };
}

/**
 * Checks a saved state (`options.state`) and returns a copy that shares nothing with the caller's value.
 *
 * @throws SkillctxError `STATE_INVALID` for anything that is not a state of this version: the message
 * names the first bad field.
 */
export function parseContextState(value: unknown): ContextState {
  const { ContextStateSchema } = stateSchemas();
  let parsed: ReturnType<typeof ContextStateSchema.safeParse>;
  try {
    // zod returns new objects and arrays for every level, so the caller's value is never shared.
    parsed = ContextStateSchema.safeParse(value);
  } catch (error) {
    // A getter that throws, a revoked proxy, ...
    throw new SkillctxError("STATE_INVALID", `options.state cannot be read: ${errorText(error)}`, { cause: error });
  }
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined || issue.path.length === 0
      ? "options.state"
      : `options.state.${issue.path.map(String).join(".")}`;
  throw new SkillctxError(
    "STATE_INVALID",
    `${where}: ${issue?.message ?? "invalid"} (pass a value saved from ctx.state)`,
    {
      data: { issues: parsed.error.issues.length },
    },
  );
}
