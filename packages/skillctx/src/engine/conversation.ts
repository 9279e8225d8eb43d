import type { Skill } from "@skillctx/core";
import { toolCallPaths } from "@skillctx/core";
import type { SkillSet, StepAttachment } from "../context-types.js";
import type { Message } from "../messages.js";
import { messageText, withAppendedText } from "../messages.js";
import { checkMessages } from "./check-messages.js";
import { contentHash } from "./fingerprint.js";
import type { Attachment } from "./state.js";
import type { ContextStateStore } from "./state-store.js";

/** A trigger that fired on a message this step and still needs its text. */
export interface PendingActivation {
  skill: Skill;
  trigger: "keyword" | "task" | "path";
  match: string;
  index: number;
  fingerprint: string;
  message: Message;
}

type Hit = Pick<PendingActivation, "skill" | "trigger" | "match">;

/**
 * Follows one conversation across steps. The longest prefix of messages that are the same objects
 * as last step is kept with its fingerprints and output; only the rest is checked, fingerprinted and
 * scanned, so a step costs time in proportion to what changed. Messages are known by fingerprint
 * (content hash, plus `#n` for the n-th identical one), which is what the state stores: a skill whose
 * message is gone from the history is re-armed.
 *
 * The tracker keeps derived data only (which objects it saw, their fingerprints, the output); the
 * conversation's state (attachments, scan marks) lives in the {@link ContextStateStore}, which it asks
 * to change.
 */
export class ConversationTracker {
  private refs: Message[] = [];
  private fingerprints: string[] = [];
  /** How many messages so far have each content hash. */
  private occurrences = new Map<string, number>();
  /** Fingerprints present in the current messages. */
  private present = new Set<string>();
  private toolCallArgs = new Map<string, unknown>();
  private output: Message[] = [];
  /** Where each present fingerprint sits in the messages (for the step's `attachments`). */
  private indexOf = new Map<string, number>();
  private keep = 0;
  /** Messages scanned by the last `scan`, marked as scanned only when `commit` records the step. */
  private scannedNow: string[] = [];

  constructor(private readonly store: ContextStateStore) {}

  /**
   * Finds what fires in messages not scanned before. Records nothing in the state until {@link commit}.
   *
   * @throws SkillctxError `MESSAGES_INVALID` (before anything changes) for a malformed message.
   */
  scan(messages: readonly Message[], skills: SkillSet, cwd: string): PendingActivation[] {
    let same = 0;
    if (Array.isArray(messages)) {
      const limit = Math.min(messages.length, this.refs.length);
      while (same < limit && messages[same] === this.refs[same]) same++;
    }
    checkMessages(messages, same);
    const changed = same < this.refs.length;
    this.truncate(same);
    for (let i = same; i < messages.length; i++) this.addFingerprint(messages[i]!);
    if (changed || same === 0) this.store.keepPresent(this.present);
    this.keep = same;

    this.scannedNow = [];
    const pending: PendingActivation[] = [];
    const firing = new Set<string>();
    for (let index = same; index < messages.length; index++) {
      const message = messages[index]!;
      if (message.role === "assistant") for (const call of message.toolCalls ?? []) this.toolCallArgs.set(call.id, call.args);
      const fingerprint = this.fingerprints[index]!;
      if ((message.role !== "user" && message.role !== "tool") || this.store.isScanned(fingerprint)) continue;
      this.scannedNow.push(fingerprint);
      const hits = message.role === "user" ? keywordHits(message, skills) : this.pathHits(message, skills, cwd);
      for (const hit of hits) {
        if (firing.has(hit.skill.name) || this.store.isAttached(hit.skill.name)) continue;
        firing.add(hit.skill.name);
        pending.push({ ...hit, index, fingerprint, message });
      }
    }
    return pending;
  }

  /**
   * Records this step's scan marks and frozen attachments, and returns the messages to send with the
   * attachments they carry (`messageIndex` into those messages, in the order appended).
   */
  commit(messages: readonly Message[], attachments: readonly Attachment[]): { messages: Message[]; attachments: StepAttachment[] } {
    this.store.markScanned(this.scannedNow);
    this.store.attach(attachments);
    // `scan` cut refs and output back to the unchanged prefix; only the rest is appended.
    const texts = this.keep < messages.length ? this.attachedTexts() : new Map<string, string[]>();
    for (let index = this.keep; index < messages.length; index++) {
      const attached = texts.get(this.fingerprints[index]!);
      this.output.push(attached === undefined ? messages[index]! : withAppendedText(messages[index]!, attached));
      this.refs.push(messages[index]!);
    }
    return { messages: this.output.slice(), attachments: this.stepAttachments() };
  }

  // Every attachment of the current messages, by message then in the order made. O(attachments).
  private stepAttachments(): StepAttachment[] {
    const found: StepAttachment[] = [];
    for (const a of this.store.attachments) {
      const messageIndex = this.indexOf.get(a.fingerprint);
      if (messageIndex !== undefined) found.push({ messageIndex, text: a.text });
    }
    return found.sort((a, b) => a.messageIndex - b.messageIndex);
  }

  private attachedTexts(): Map<string, string[]> {
    const texts = new Map<string, string[]>();
    for (const a of this.store.attachments) texts.set(a.fingerprint, [...(texts.get(a.fingerprint) ?? []), a.text]);
    return texts;
  }

  // Forgets messages from `length` on: their fingerprints and output.
  private truncate(length: number): void {
    for (let i = length; i < this.fingerprints.length; i++) {
      const fingerprint = this.fingerprints[i]!;
      const hash = fingerprint.split("#")[0]!;
      this.occurrences.set(hash, (this.occurrences.get(hash) ?? 1) - 1);
      this.present.delete(fingerprint);
      this.indexOf.delete(fingerprint);
    }
    this.fingerprints.length = Math.min(length, this.fingerprints.length);
    this.refs.length = Math.min(length, this.refs.length);
    this.output.length = Math.min(length, this.output.length);
    if (length === 0) this.toolCallArgs.clear();
  }

  private addFingerprint(message: Message): void {
    const hash = contentHash(message);
    const count = this.occurrences.get(hash) ?? 0;
    this.occurrences.set(hash, count + 1);
    const fingerprint = count === 0 ? hash : `${hash}#${count}`;
    this.indexOf.set(fingerprint, this.fingerprints.length);
    this.fingerprints.push(fingerprint);
    this.present.add(fingerprint);
  }

  private pathHits(message: Message, skills: SkillSet, cwd: string): Hit[] {
    if (message.toolCallId === undefined || !this.toolCallArgs.has(message.toolCallId)) return [];
    const paths = toolCallPaths(this.toolCallArgs.get(message.toolCallId));
    if (paths.length === 0) return [];
    const hits: Hit[] = [];
    for (const match of skills.paths.match(paths, cwd)) {
      const skill = skills.byName.get(match.skill);
      if (skill === undefined || hits.some((h) => h.skill === skill)) continue;
      hits.push({ skill, trigger: "path", match: match.path });
    }
    return hits;
  }
}

function keywordHits(message: Message, skills: SkillSet): Hit[] {
  const hits: Hit[] = [];
  for (const match of skills.keywords.match(messageText(message))) {
    const skill = skills.byName.get(match.skill);
    if (skill === undefined || (skill.trigger.type !== "keyword" && skill.trigger.type !== "task")) continue;
    hits.push({ skill, trigger: skill.trigger.type, match: match.keyword });
  }
  return hits;
}
