import type { Diagnostic, Skill } from "@skillctx/core";
import { toolCallPaths } from "@skillctx/core";
import type { SkillSet, StepAttachment } from "../context-types.js";
import type { Message } from "../messages.js";
import { messageText, withAppendedText } from "../messages.js";
import { checkMessages } from "./check-messages.js";
import { contentHash } from "./fingerprint.js";
import { HistoryPrefix } from "./history-prefix.js";
import { mentions, slashCommand } from "./invocation.js";
import type { Attachment, Carrier } from "./state.js";
import type { ContextStateStore } from "./state-store.js";
import { decodeToolArguments } from "@skillctx/core/internal";

/** A trigger that fired, or a user command, on a message this step; it still needs its text. */
export interface PendingActivation {
  skill: Skill;
  trigger: "keyword" | "task" | "path" | "command";
  /** The keyword or path that fired it, or the invoking text (`/deploy staging`, `@rule`). */
  match: string;
  index: number;
  fingerprint: string;
  message: Message;
  /** A `/name` command's argument text (`""` when none); undefined for `@` mentions and triggers. */
  args?: string | undefined;
}

/** A new tool result and the paths its call touched (where nested skill folders may be revealed). */
export interface TouchedPaths {
  index: number;
  fingerprint: string;
  paths: string[];
}

/** What a scan found in the new messages. */
export interface ScanResult {
  pending: PendingActivation[];
  /** New tool results whose calls named paths (only when `withTouched`). */
  touched: TouchedPaths[];
  /** `/name` of skills the user may not invoke: `info` diagnostics. */
  notes: Diagnostic[];
  /** The new tool result that carries the pending load's body, when found. */
  loadCarrier?: { skill: string; fingerprint: string };
  /** New user messages (only when `withUserText`): what suggestions are looked for in. */
  userMessages?: { index: number; fingerprint: string; text: string }[];
  /** Where `ctx.invoke` attaches: the last new user message, else the newest message; undefined with no message. */
  invokeAt?: { index: number; fingerprint: string; message: Message };
  /** The newest message's fingerprint (re-attached bodies and the update note go there); undefined with no message. */
  newest?: string;
}

/** What the scan needs beside the messages. */
export interface ScanOptions {
  skills: SkillSet;
  cwd: string;
  /** Report the paths of new tool results (nested skill discovery is on). */
  withTouched?: boolean;
  /** Whether a tool name is one of the skill tools (to find the tool result of a load). */
  isSkillTool?: (name: string) => boolean;
  /** Report the text of new user messages (suggestions are on). */
  withUserText?: boolean;
}

/** What a step records besides scan marks and attachments. */
export interface StepRecord {
  attachments: readonly Attachment[];
  /** Carriers of this step's user commands. */
  carriers?: readonly Carrier[];
  loadCarrier?: { skill: string; fingerprint: string } | undefined;
  /** Carriers given up this step (their bodies could not be re-attached). */
  dropCarriers?: readonly string[] | undefined;
  /** Nested skill folders revealed this step. */
  revealed?: readonly string[];
}

type Hit = Pick<PendingActivation, "skill" | "trigger" | "match" | "args">;

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
  /** The messages seen (the same objects as last step make the unchanged prefix). */
  private readonly seen = new HistoryPrefix<Message>();
  private fingerprints: string[] = [];
  /** How many messages so far have each content hash. */
  private occurrences = new Map<string, number>();
  /** Fingerprints present in the current messages. */
  private present = new Set<string>();
  /** Tool calls of the messages seen, by call id. */
  private toolCalls = new Map<string, { name: string; args: unknown }>();
  private output: Message[] = [];
  /** Where each present fingerprint sits in the messages (for the step's `attachments`). */
  private indexOf = new Map<string, number>();
  private keep = 0;
  /** Messages scanned by the last `scan`, marked as scanned only when `commit` records the step. */
  private scannedNow: string[] = [];
  /** The messages of the last `scan`, which `commit` records. */
  private messages: readonly Message[] = [];

  constructor(private readonly store: ContextStateStore) {}

  /**
   * Finds what fires in messages not scanned before, and where this step's invocations and notes go.
   * Records nothing in the state until {@link commit}, which records these messages.
   *
   * @throws SkillctxError `MESSAGES_INVALID` (before anything changes) for a malformed message.
   */
  scan(messages: readonly Message[], options: ScanOptions): ScanResult {
    const { skills, cwd } = options;
    const same = Array.isArray(messages) ? this.seen.sameAs(messages) : 0;
    checkMessages(messages, same);
    const changed = same < this.seen.length;
    this.truncate(same);
    for (let i = same; i < messages.length; i++) this.addFingerprint(messages[i]!);
    if (changed || same === 0) this.store.keepPresent(this.present);
    this.keep = same;

    this.scannedNow = [];
    const result: ScanResult = { pending: [], touched: [], notes: [] };
    const firing = new Set<string>();
    const pendingLoad = this.store.pendingLoad;
    for (let index = same; index < messages.length; index++) {
      const message = messages[index]!;
      if (message.role === "assistant")
        for (const call of message.toolCalls ?? []) this.toolCalls.set(call.id, { name: call.name, args: call.args });
      const fingerprint = this.fingerprints[index]!;
      if ((message.role !== "user" && message.role !== "tool") || this.store.isScanned(fingerprint)) continue;
      this.scannedNow.push(fingerprint);
      let hits: Hit[];
      if (message.role === "user") {
        const text = messageText(message);
        hits = userHits(text, skills, result.notes);
        if (options.withUserText === true) (result.userMessages ??= []).push({ index, fingerprint, text });
      } else {
        const call = message.toolCallId === undefined ? undefined : this.toolCalls.get(message.toolCallId);
        const paths = call === undefined ? [] : toolCallPaths(call.args);
        if (options.withTouched === true && paths.length > 0) result.touched.push({ index, fingerprint, paths });
        if (
          pendingLoad !== undefined &&
          result.loadCarrier === undefined &&
          call !== undefined &&
          options.isSkillTool?.(call.name) === true &&
          namesSkill(call.args, pendingLoad)
        ) {
          result.loadCarrier = { skill: pendingLoad, fingerprint };
        }
        hits = paths.length === 0 ? [] : pathHits(paths, skills, cwd);
      }
      let invokedHere: Set<string> | undefined;
      for (const hit of hits) {
        const name = hit.skill.name;
        if (hit.trigger === "command") {
          // An explicit invocation attaches again (new arguments), once per message.
          if (invokedHere?.has(name) === true) continue;
          (invokedHere ??= new Set()).add(name);
        } else if (firing.has(name) || this.store.isAttached(name)) {
          continue;
        }
        firing.add(name);
        result.pending.push({ ...hit, index, fingerprint, message });
      }
    }
    if (messages.length > 0) {
      const at = this.invocationIndex(messages);
      result.invokeAt = { index: at, fingerprint: this.fingerprints[at]!, message: messages[at]! };
      result.newest = this.fingerprints[messages.length - 1]!;
    }
    this.messages = messages;
    return result;
  }

  /**
   * Records this step's scan marks and frozen attachments, and returns the messages of the last
   * {@link scan} to send, with the attachments they carry (`messageIndex` into those messages, in the order appended).
   */
  commit(record: StepRecord): { messages: Message[]; attachments: StepAttachment[] } {
    const { attachments } = record;
    const messages = this.messages;
    this.store.markScanned(this.scannedNow);
    this.store.attach(attachments);
    for (const carrier of record.carriers ?? []) this.store.carry(carrier);
    for (const name of record.dropCarriers ?? []) this.store.dropCarrier(name);
    if (record.loadCarrier !== undefined)
      this.store.placeLoad(record.loadCarrier.skill, record.loadCarrier.fingerprint);
    if (record.revealed !== undefined && record.revealed.length > 0) this.store.reveal(record.revealed);
    // Text attached to a message kept from the last step (an invocation when nothing new came): rebuilt.
    const older = attachments.filter((a) => (this.indexOf.get(a.fingerprint) ?? this.keep) < this.keep);
    // `scan` cut the seen messages and output back to the unchanged prefix; only the rest is appended.
    const texts = this.keep < messages.length || older.length > 0 ? this.attachedTexts() : new Map<string, string[]>();
    for (const a of older) {
      const index = this.indexOf.get(a.fingerprint)!;
      this.output[index] = withAppendedText(messages[index]!, texts.get(a.fingerprint) ?? []);
    }
    for (let index = this.keep; index < messages.length; index++) {
      const attached = texts.get(this.fingerprints[index]!);
      this.output.push(attached === undefined ? messages[index]! : withAppendedText(messages[index]!, attached));
    }
    this.seen.see(messages, this.keep);
    return { messages: this.output.slice(), attachments: this.stepAttachments() };
  }

  /** Index in the current messages of the message with `fingerprint` (events). */
  messageIndexOf(fingerprint: string): number | undefined {
    return this.indexOf.get(fingerprint);
  }

  /** The stored attachments of the current messages with their message index, in the order made (token usage). O(attachments). */
  presentAttachments(): { attachment: Attachment; messageIndex: number }[] {
    const found: { attachment: Attachment; messageIndex: number }[] = [];
    for (const attachment of this.store.attachments) {
      const messageIndex = this.indexOf.get(attachment.fingerprint);
      if (messageIndex !== undefined) found.push({ attachment, messageIndex });
    }
    return found;
  }

  // Where `ctx.invoke` attaches: the last new user message, else the newest message.
  private invocationIndex(messages: readonly Message[]): number {
    for (let i = messages.length - 1; i >= this.keep; i--) if (messages[i]!.role === "user") return i;
    return messages.length - 1;
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
    this.seen.cut(length);
    this.output.length = Math.min(length, this.output.length);
    if (length === 0) this.toolCalls.clear();
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
}

// A user message: its `/name` command first (so a keyword of the same skill does not fire it twice),
// then `@` mentions, then keywords.
function userHits(text: string, skills: SkillSet, notes: Diagnostic[]): Hit[] {
  const hits: Hit[] = [];
  const command = slashCommand(text, skills);
  if (command.refused !== undefined) notes.push(command.refused);
  if (command.hit !== undefined) hits.push({ ...command.hit, trigger: "command" });
  for (const mention of mentions(text, skills)) hits.push({ ...mention, trigger: "command" });
  for (const match of skills.keywords.match(text)) {
    const skill = skills.byName.get(match.skill);
    if (skill === undefined || (skill.trigger.type !== "keyword" && skill.trigger.type !== "task")) continue;
    hits.push({ skill, trigger: skill.trigger.type, match: match.keyword });
  }
  return hits;
}

function pathHits(paths: string[], skills: SkillSet, cwd: string): Hit[] {
  const hits: Hit[] = [];
  for (const match of skills.paths.match(paths, cwd)) {
    const skill = skills.byName.get(match.skill);
    if (skill === undefined || hits.some((h) => h.skill === skill)) continue;
    hits.push({ skill, trigger: "path", match: match.path });
  }
  return hits;
}

// Whether a skill tool's arguments name `skill` (a top-level string value, trimmed): the load's tool result.
function namesSkill(args: unknown, skill: string): boolean {
  const decoded = decodeToolArguments(args);
  if (!decoded.ok) return false;
  const value = decoded.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  try {
    return Object.values(value).some((v) => typeof v === "string" && v.trim() === skill);
  } catch {
    return false;
  }
}
