import type { Skill } from "@skillctx/core";
import { toolCallPaths } from "@skillctx/core";
import type { Message } from "../messages.js";
import { messageText, withAppendedText } from "../messages.js";
import { extendFingerprints } from "./fingerprint.js";
import type { SkillSet } from "./skill-set.js";
import type { Attachment, ContextState } from "./state.js";

/** A trigger that fired on a message this step and still needs its text. */
export interface PendingActivation {
  skill: Skill;
  trigger: "keyword" | "task" | "path";
  match: string;
  index: number;
  fingerprint: string;
  message: Message;
}

/**
 * Follows one conversation across steps. A step that only appends messages costs time in
 * proportion to the new messages: the unchanged prefix is recognised by object identity and its
 * fingerprints and output messages are reused. Anything else (history condensed, rewritten, or a
 * resumed state) takes the full path: fingerprints are matched against the frozen attachments,
 * and a skill whose message is gone is re-armed.
 */
export class ConversationTracker {
  private refs: Message[] = [];
  private fingerprints: string[] = [];
  private occurrences = new Map<string, number>();
  private toolCallArgs = new Map<string, unknown>();
  private output: Message[] = [];
  private scanned: Set<string>;
  /** Index from which this step's output must be rebuilt. */
  private rebuildFrom = 0;
  private resync = true;

  constructor(private readonly state: ContextState) {
    this.scanned = new Set(state.scanned);
  }

  /** Forget identity-based shortcuts (after a resume or when the skill set changes). */
  invalidate(): void {
    this.resync = true;
  }

  /** Finds what fires in the messages that were not scanned before. Records nothing yet. */
  scan(messages: readonly Message[], skills: SkillSet, cwd: string): PendingActivation[] {
    let same = 0;
    const limit = Math.min(messages.length, this.refs.length);
    while (same < limit && messages[same] === this.refs[same]) same++;
    const appendOnly = !this.resync && same === this.refs.length;

    if (!appendOnly) this.rewind(same);
    extendFingerprints(messages, this.fingerprints.length, {
      fingerprints: this.fingerprints,
      seen: this.occurrences,
    });
    if (!appendOnly) this.rearm(messages);

    this.rebuildFrom = appendOnly ? same : 0;
    const armed = (name: string) => !this.state.attachments.some((a) => a.skill === name);
    const pending: PendingActivation[] = [];
    const firing = new Set<string>();
    for (let index = appendOnly ? same : 0; index < messages.length; index++) {
      const message = messages[index]!;
      if (message.role === "assistant") this.rememberToolCalls(message);
      const fingerprint = this.fingerprints[index]!;
      if (this.scanned.has(fingerprint) || (message.role !== "user" && message.role !== "tool")) continue;
      this.scanned.add(fingerprint);
      this.state.scanned.push(fingerprint);
      const fired = message.role === "user" ? this.keywordHits(message, skills) : this.pathHits(message, skills, cwd);
      for (const hit of fired) {
        if (!armed(hit.skill.name) || firing.has(hit.skill.name)) continue;
        firing.add(hit.skill.name);
        pending.push({ ...hit, index, fingerprint, message });
      }
    }
    return pending;
  }

  /** Records the frozen attachments of this step and returns the messages to send. */
  commit(messages: readonly Message[], attachments: readonly Attachment[]): Message[] {
    this.state.attachments.push(...attachments);
    const byFingerprint = this.attachmentsByFingerprint();
    const out = this.output.slice(0, this.rebuildFrom);
    for (let index = this.rebuildFrom; index < messages.length; index++) {
      const texts = byFingerprint.get(this.fingerprints[index]!);
      out.push(texts === undefined ? messages[index]! : withAppendedText(messages[index]!, texts));
    }
    this.refs = messages.slice();
    this.output = out;
    this.resync = false;
    return out.slice();
  }

  private rewind(keep: number): void {
    this.fingerprints.length = Math.min(keep, this.fingerprints.length);
    this.occurrences = new Map();
    for (const fingerprint of this.fingerprints) {
      const hash = fingerprint.split("#")[0]!;
      this.occurrences.set(hash, (this.occurrences.get(hash) ?? 0) + 1);
    }
    this.toolCallArgs = new Map();
    this.output = [];
    this.refs = [];
  }

  // Drops attachments whose message is gone (the skill may fire again) and scanned marks of vanished messages.
  private rearm(messages: readonly Message[]): void {
    const present = new Set(this.fingerprints.slice(0, messages.length));
    this.state.attachments = this.state.attachments.filter((a) => present.has(a.fingerprint));
    this.state.scanned = this.state.scanned.filter((fingerprint) => present.has(fingerprint));
    this.scanned = new Set(this.state.scanned);
  }

  private attachmentsByFingerprint(): Map<string, string[]> {
    const map = new Map<string, string[]>();
    for (const attachment of this.state.attachments) {
      const list = map.get(attachment.fingerprint);
      if (list === undefined) map.set(attachment.fingerprint, [attachment.text]);
      else list.push(attachment.text);
    }
    return map;
  }

  private rememberToolCalls(message: Message): void {
    for (const call of message.toolCalls ?? []) this.toolCallArgs.set(call.id, call.args);
  }

  private keywordHits(message: Message, skills: SkillSet): Array<Omit<PendingActivation, "index" | "fingerprint" | "message">> {
    const hits = [];
    for (const match of skills.keywords.match(messageText(message))) {
      const skill = skills.byName.get(match.skill);
      if (skill === undefined || (skill.trigger.type !== "keyword" && skill.trigger.type !== "task")) continue;
      hits.push({ skill, trigger: skill.trigger.type, match: match.keyword });
    }
    return hits;
  }

  private pathHits(message: Message, skills: SkillSet, cwd: string): Array<Omit<PendingActivation, "index" | "fingerprint" | "message">> {
    if (message.toolCallId === undefined || !this.toolCallArgs.has(message.toolCallId)) return [];
    const paths = toolCallPaths(this.toolCallArgs.get(message.toolCallId));
    if (paths.length === 0) return [];
    const hits = [];
    const seen = new Set<string>();
    for (const match of skills.paths.match(paths, cwd)) {
      const skill = skills.byName.get(match.skill);
      if (skill === undefined || seen.has(match.skill)) continue;
      seen.add(match.skill);
      hits.push({ skill, trigger: "path" as const, match: match.path });
    }
    return hits;
  }
}
