import { diagnostic, readSkillContent, SkillctxError } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import { skillLocation } from "../skill-location.js";
import { capSkillBody } from "../text-cap.js";
import type { PendingActivation } from "./conversation.js";
import type { CollectInputsRequest } from "./options.js";
import type { Attachment } from "./state.js";
import { fillInputs, undeclaredInputs } from "./task-inputs.js";
import type { InputValues } from "./task-inputs.js";
import type { Templates } from "./templates.js";

/** What building an attachment needs from the context. */
export interface AttachmentContext {
  cwd: string;
  templates: Templates;
  /** `limits.maxAttachedSkillBytes`. */
  maxBytes: number;
  /** Render `` !`cmd` `` spans (`render.onTrigger`). */
  renderOnTrigger: boolean;
  collectInputs: ((request: CollectInputsRequest) => Promise<InputValues | undefined> | InputValues | undefined) | undefined;
  render(text: string, skill: Skill, signal: AbortSignal): Promise<string>;
  report(d: Diagnostic): void;
}

/**
 * The frozen text of a skill that fired: its body read, rendered, with task inputs put in (after
 * rendering: a value is the user's text and never runs), capped, and wrapped by the injection
 * template. Undefined (with a diagnostic) when the body cannot be read or rendered, so one broken
 * skill does not stop the others. Rejects only when `signal` aborts (or `collectInputs` throws).
 */
export async function buildAttachment(p: PendingActivation, context: AttachmentContext, signal: AbortSignal): Promise<Attachment | undefined> {
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
    if (inputs.length > 0) values = (await context.collectInputs?.({ skill, inputs, message: p.message, signal })) ?? {};
    signal.throwIfAborted();
  }

  let body = content;
  if (context.renderOnTrigger) {
    try {
      body = await context.render(content, skill, signal);
    } catch (error) {
      signal.throwIfAborted();
      context.report(attachFailed(p, error));
      return undefined;
    }
  }
  const filled = fillInputs(body, inputs, values);
  const capped = capSkillBody(skill, filled.text, context.maxBytes, "limits.maxAttachedSkillBytes");
  if (capped.diagnostic !== undefined) context.report(capped.diagnostic);
  const text = context.templates.injection({
    skill: skill.name,
    trigger: p.trigger,
    match: p.match,
    location: skillLocation(skill, context.cwd),
    body: capped.text,
    missingInputs: filled.missing,
  });
  return { skill: skill.name, trigger: p.trigger, match: p.match, fingerprint: p.fingerprint, text };
}

function attachFailed(p: PendingActivation, error: unknown): Diagnostic {
  const code = SkillctxError.isInstance(error) && error.code === "SKILL_READ_FAILED" ? "SKILL_READ_FAILED" : "SKILL_ATTACH_FAILED";
  const reason = error instanceof Error ? error.message : String(error);
  return diagnostic(code, "error", `the skill "${p.skill.name}" fired (${p.trigger} "${p.match}") but is not attached: ${reason}`, {
    path: p.skill.source.path,
  });
}
