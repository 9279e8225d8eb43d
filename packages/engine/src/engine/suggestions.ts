/**
 * Suggestions on the user's messages (`catalog.search.suggest`): a new user message that matches skills above
 * the suggestion score gets one short frozen note naming at most `maxSkills` of them and the words that
 * matched. `system` and the tools never change: the note is text appended to that message, like a
 * keyword skill's body, and stays the same bytes every step.
 */
import { promptLine } from "@skillctx/core";
import type { SkillMatch } from "@skillctx/core";
import type { SkillSet } from "../context-types.js";
import type { ScanResult } from "./conversation.js";
import type { Attachment } from "./state.js";
import type { EngineDeps } from "./step-deps.js";

/**
 * The suggestion notes of this step's new user messages. Each skill is suggested once per conversation
 * (skills named by a note still present are left out), only skills the model may load, never a skill
 * that fired or was invoked on the same message. No work at all (no index) when suggestions are off
 * or no user message is new.
 */
export async function suggestionNotes(
  deps: Pick<EngineDeps, "search" | "store" | "toolbox">,
  scan: ScanResult,
  skills: SkillSet,
  signal: AbortSignal,
): Promise<Attachment[]> {
  const users = scan.userMessages;
  if (deps.search.suggestions === undefined || users === undefined || users.length === 0) return [];
  const named = suggestedSkills(deps.store.attachments);
  const notes: Attachment[] = [];
  for (const user of users) {
    const exclude = new Set(named);
    const active = deps.store.activeSkill;
    if (active !== undefined) exclude.add(active);
    for (const p of scan.pending) if (p.index === user.index) exclude.add(p.skill.name);
    const found = await deps.search.suggest(skills, user.text, exclude, signal);
    if (found.length === 0) continue;
    for (const match of found) named.add(match.name);
    notes.push({
      skill: "",
      trigger: "suggest",
      match: found.map((m) => m.name).join(" "),
      fingerprint: user.fingerprint,
      text: suggestionText(found, deps.toolbox.toolset.loadInstruction),
    });
  }
  return notes;
}

/** The note's text: the skills, best first, each with the request's words that matched it. */
export function suggestionText(found: readonly SkillMatch[], loadInstruction: string): string {
  const parts = found.map(
    (m) => `${promptLine(m.name)} (matched: ${m.matched.map((t) => promptLine(t.term)).join(", ")})`,
  );
  return `[skillctx: ${found.length === 1 ? "a skill that may apply" : "skills that may apply"} to this message: ${parts.join("; ")}. Load one with ${loadInstruction} if it fits the task.]`;
}

// Skills already named by a suggestion note of the conversation.
function suggestedSkills(attachments: readonly Attachment[]): Set<string> {
  const names = new Set<string>();
  for (const a of attachments) if (a.trigger === "suggest") for (const name of a.match.split(" ")) names.add(name);
  return names;
}
