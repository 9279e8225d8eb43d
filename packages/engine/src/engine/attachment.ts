import path from "node:path";
import { diagnostic, readSkillContent, SkillctxError } from "@skillctx/core";
import type { Diagnostic, DiagnosticSink, Skill } from "@skillctx/core";
import { skillLocation } from "../skill-location.js";
import { capSkillBody } from "../text-cap.js";
import { substitute } from "./arguments.js";
import type { PendingActivation } from "./conversation.js";
import type { CollectInputsRequest } from "./options.js";
import type { Attachment } from "./state.js";
import { fillInputs, undeclaredInputs } from "./task-inputs.js";
import type { InputValues } from "./task-inputs.js";
import type { Templates } from "./templates.js";
import { errorText } from "@skillctx/core/internal";

/** What building an attachment needs from the context. */
export interface AttachmentContext {
  cwd: string;
  templates: Templates;
  /** `conversation.limits.maxAttachedSkillBytes`. */
  maxBytes: number;
  /** Render `` !`cmd` `` spans of keyword, task and path skills (`tools.render.onTrigger`); user commands always render. */
  renderOnTrigger: boolean;
  /** The session id, for `${CLAUDE_SESSION_ID}` (made on first need). */
  sessionId(): string;
  collectInputs:
    | ((request: CollectInputsRequest) => Promise<InputValues | undefined> | InputValues | undefined)
    | undefined;
  render(text: string, skill: Skill, signal: AbortSignal): Promise<string>;
  report: DiagnosticSink;
}

/** An attachment, and the body inside it (what a user command's carrier keeps for re-attachment). */
export interface BuiltAttachment {
  attachment: Attachment;
  body: string;
}

/**
 * The frozen text of a skill that fired or was invoked: its body read, rendered, with the skill's
 * variables and a command's arguments substituted and task inputs put in (after rendering: arguments
 * and values are the user's text and never run), capped, and wrapped by the injection template.
 * Undefined (with a diagnostic) when the body cannot be read or rendered, so one broken skill does not
 * stop the others. Rejects only when `signal` aborts (or `conversation.collectInputs` throws).
 */
export async function buildAttachment(
  p: PendingActivation,
  context: AttachmentContext,
  signal: AbortSignal,
): Promise<BuiltAttachment | undefined> {
  const { skill } = p;
  let content: string;
  try {
    content = await readSkillContent(skill, { signal });
  } catch (error) {
    signal.throwIfAborted();
    context.report(attachFailed(p, error));
    return undefined;
  }

  let inputs: NonNullable<Skill["inputs"]> = [];
  let values: InputValues = {};
  if (skill.trigger.type === "task") {
    // Declared inputs, then `${name}` placeholders the skill uses without declaring (as OpenHands asks for them).
    inputs = [...skill.trigger.inputs, ...undeclaredInputs(content, skill.trigger.inputs)];
    if (inputs.length > 0)
      values = (await context.collectInputs?.({ skill, inputs, message: p.message, signal })) ?? {};
    signal.throwIfAborted();
  }

  let body = content;
  if (context.renderOnTrigger || p.trigger === "command") {
    try {
      body = await context.render(content, skill, signal);
    } catch (error) {
      signal.throwIfAborted();
      context.report(attachFailed(p, error));
      return undefined;
    }
  }
  const substituted = substitute(body, {
    args: p.trigger === "command" ? p.args : undefined,
    argumentNames: skill.argumentNames,
    skillDir: skillDirOf(skill),
    sessionId: context.sessionId(),
    maxChars: SUBSTITUTION_SLACK * context.maxBytes,
  });
  const filled = fillInputs(substituted.text, inputs, values);
  const capped = capSkillBody(skill, filled.text, context.maxBytes, "conversation.limits.maxAttachedSkillBytes");
  if (capped.diagnostic !== undefined) context.report(capped.diagnostic);
  const text = context.templates.injection({
    skill: skill.name,
    trigger: p.trigger,
    match: p.match,
    location: skillLocation(skill, context.cwd),
    body: capped.text,
    missingInputs: filled.missing,
  });
  return {
    attachment: { skill: skill.name, trigger: p.trigger, match: p.match, fingerprint: p.fingerprint, text },
    body: capped.text,
  };
}

/** The absolute folder `${CLAUDE_SKILL_DIR}` stands for: the skill's folder, else its file's; undefined for a skill given in code without one. */
export function skillDirOf(skill: Pick<Skill, "dir" | "source">): string | undefined {
  if (skill.dir !== undefined) return skill.dir;
  return skill.source.path === undefined ? undefined : path.dirname(skill.source.path);
}

/**
 * Substitution stops building a body at this many times the byte cap (in UTF-16 units): the cap
 * then cuts it with a note, and a body of repeated `$ARGUMENTS` with huge arguments stays bounded.
 */
const SUBSTITUTION_SLACK = 4;

function attachFailed(p: PendingActivation, error: unknown): Diagnostic {
  const code =
    SkillctxError.isInstance(error) && error.code === "SKILL_READ_FAILED" ? "SKILL_READ_FAILED" : "SKILL_ATTACH_FAILED";
  const reason = errorText(error);
  return diagnostic(
    code,
    "error",
    `the skill "${p.skill.name}" fired (${p.trigger} "${p.match}") but is not attached: ${reason}`,
    {
      path: p.skill.source.path,
    },
  );
}
