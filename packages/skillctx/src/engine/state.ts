import { z } from "zod";

/** Text attached to one message, frozen at first activation. */
export const AttachmentSchema = z.object({
  skill: z.string(),
  trigger: z.enum(["keyword", "task", "path"]),
  /** The keyword or path that fired it. */
  match: z.string(),
  /** Fingerprint of the message it is attached to. */
  fingerprint: z.string(),
  /** The exact bytes appended to that message. */
  text: z.string(),
});

/**
 * Everything a context needs to resume a conversation: plain JSON.
 * Pass it back as `AgentContext.create({ ..., state })`.
 */
export const ContextStateSchema = z.object({
  version: z.literal(1),
  attachments: z.array(AttachmentSchema),
  /** Fingerprints of the user and tool messages already scanned for triggers. */
  scanned: z.array(z.string()),
  /** Frozen renderings, keyed `guidance:<name>` or `load:<name>`. */
  rendered: z.record(z.string(), z.string()),
  /** The skill the model loaded last and has not unloaded. */
  activeSkill: z.string().optional(),
});

export type Attachment = z.infer<typeof AttachmentSchema>;
export type ContextState = z.infer<typeof ContextStateSchema>;

export function emptyState(): ContextState {
  return { version: 1, attachments: [], scanned: [], rendered: {} };
}
