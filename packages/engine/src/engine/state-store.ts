import { randomUUID } from "@skillctx/core/internal";
import type { Attachment, Carrier, ContextState, SentCatalog } from "./state.js";
import { emptyState } from "./state.js";

/**
 * The one owner and only writer of a conversation's {@link ContextState}: attachments, scan marks,
 * frozen renderings, the active skill, the carriers of invoked and loaded bodies, revealed nested
 * skill folders and the session id. The tracker, the engine and (through the narrow
 * `SkillState` view the engine gives them) the tools change the state by calling these methods;
 * none of them holds the state object. `snapshot()` is the JSON a host saves to resume.
 */
export class ContextStateStore {
  #attachments: Attachment[];
  /** Names of the skills in `#attachments`, for the per-hit check of a scan. */
  #attached: Map<string, number>;
  #scanned: Set<string>;
  #rendered: Map<string, string>;
  #active: string | undefined;
  #sessionId: string | undefined;
  /** By skill name, in order of activation (most recent last). */
  #carriers: Map<string, Carrier>;
  /** Skills whose carrier left the conversation by condensation: their bodies are due again (not saved: re-derived). */
  #due = new Set<string>();
  #nested: Set<string>;
  /** Folders whose catalog note (trigger `catalog`) is attached to a present message. */
  #noted: Set<string>;
  /** Per-skill state by namespace (JSON values; replaced whole, never mutated in place). */
  #skillStates: Map<string, unknown>;
  /** The `system` first sent and the skills the model was told of (append mode). */
  #told: SentCatalog | undefined;

  /** `initial` must be a checked state (`parseContextState`); it is copied. */
  constructor(initial: ContextState = emptyState()) {
    this.#attachments = initial.attachments.map((a) => ({ ...a }));
    this.#attached = countBySkill(this.#attachments);
    this.#noted = notedFolders(this.#attachments);
    this.#scanned = new Set(initial.scanned);
    this.#rendered = new Map(Object.entries(initial.rendered));
    this.#active = initial.activeSkill;
    this.#sessionId = initial.sessionId;
    this.#carriers = new Map((initial.carriers ?? []).map((c) => [c.skill, { ...c }]));
    this.#nested = new Set(initial.nested ?? []);
    this.#skillStates = new Map(Object.entries(initial.skillStates ?? {}).map(([k, v]) => [k, structuredClone(v)]));
    this.#told =
      initial.told === undefined ? undefined : { system: initial.told.system, skills: { ...initial.told.skills } };
  }

  // --- attachments -----------------------------------------------------------------------------

  /** The frozen attachments, in the order they were made. */
  get attachments(): readonly Attachment[] {
    return this.#attachments;
  }

  /** Whether skill `name`'s body is attached to a message of the conversation (catalog notes do not count). */
  isAttached(name: string): boolean {
    return this.#attached.has(name);
  }

  /**
   * Records attachments made in a step. A `reattach` attachment becomes its skill's carrier; a
   * `catalog` note marks its folder as noted.
   */
  attach(attachments: readonly Attachment[]): void {
    for (const attachment of attachments) {
      this.#attachments.push({ ...attachment });
      if (attachment.trigger === "catalog") {
        this.#noted.add(attachment.skill);
        continue;
      }
      if (attachment.trigger === "update" || attachment.trigger === "suggest") continue;
      this.#attached.set(attachment.skill, (this.#attached.get(attachment.skill) ?? 0) + 1);
      if (attachment.trigger === "reattach") {
        const carrier = this.#carriers.get(attachment.skill);
        if (carrier !== undefined) carrier.fingerprint = attachment.fingerprint;
        this.#due.delete(attachment.skill);
      }
    }
  }

  /**
   * Keeps the attachments (and scan marks) of the messages still present; the others' skills are
   * re-armed. A carrier whose message is gone makes its body due again when the conversation was
   * condensed; when it was only cut back to before that message (a rewind), the carrier is dropped.
   */
  keepPresent(present: ReadonlySet<string>): void {
    if (this.#carriers.size > 0) this.#checkCarriers(present);
    if (this.#attachments.some((a) => !present.has(a.fingerprint))) {
      this.#attachments = this.#attachments.filter((a) => present.has(a.fingerprint));
      this.#attached = countBySkill(this.#attachments);
      this.#noted = notedFolders(this.#attachments);
    }
    for (const fingerprint of this.#scanned) if (!present.has(fingerprint)) this.#scanned.delete(fingerprint);
  }

  // Before the scan marks of absent messages are dropped: they give the order of the conversation.
  #checkCarriers(present: ReadonlySet<string>): void {
    let order: string[] | undefined;
    for (const carrier of [...this.#carriers.values()]) {
      const at = carrier.fingerprint;
      if (at === undefined || present.has(at) || this.#due.has(carrier.skill)) continue;
      order ??= [...this.#scanned];
      const still = carrier.kind === "command" || this.#active === carrier.skill;
      if (still && !cutBackBefore(order, at, present)) this.#due.add(carrier.skill);
      else this.#carriers.delete(carrier.skill);
    }
  }

  // --- scan marks ------------------------------------------------------------------------------

  /** Whether the message with this fingerprint was scanned for triggers. */
  isScanned(fingerprint: string): boolean {
    return this.#scanned.has(fingerprint);
  }

  /** Marks messages as scanned. */
  markScanned(fingerprints: Iterable<string>): void {
    for (const fingerprint of fingerprints) this.#scanned.add(fingerprint);
  }

  // --- frozen renderings -----------------------------------------------------------------------

  /** The rendering frozen under `key` (`guidance:<name>`, `load:<name>`), or undefined. */
  frozen(key: string): string | undefined {
    return this.#rendered.get(key);
  }

  /**
   * Forgets the rendering frozen under `key` (its source changed): the next load renders it afresh.
   * A loaded skill whose carrier still relies on it keeps that body in its carrier (re-attached as loaded).
   */
  thaw(key: string): void {
    const text = this.#rendered.get(key);
    if (text === undefined) return;
    this.#rendered.delete(key);
    const carrier = key.startsWith("load:") ? this.#carriers.get(key.slice("load:".length)) : undefined;
    if (carrier?.kind === "load" && carrier.body === undefined) carrier.body = text;
  }

  /** Freezes `text` under `key`; a key frozen before keeps its first text. */
  freeze(key: string, text: string): void {
    if (!this.#rendered.has(key)) this.#rendered.set(key, text);
  }

  // --- the active skill ------------------------------------------------------------------------

  /** The skill the model loaded last and has not unloaded. */
  get activeSkill(): string | undefined {
    return this.#active;
  }

  /**
   * Makes `name` the active skill; returns the one active before (undefined when none, or the same).
   * The load's tool result, once seen, carries its body ({@link placeLoad}).
   */
  activate(name: string): string | undefined {
    const previous = this.#active;
    this.#active = name;
    if (previous !== undefined && previous !== name) this.#dropLoad(previous);
    this.#dropLoad(name);
    // `fingerprint` has its place (schema order) before it is known, so a saved state resumes byte for byte.
    this.#carriers.set(name, { skill: name, kind: "load", fingerprint: undefined, match: "load" });
    return previous === name ? undefined : previous;
  }

  /** Ends the active skill; returns its name, or undefined when none was active. */
  deactivate(): string | undefined {
    const previous = this.#active;
    this.#active = undefined;
    if (previous !== undefined) this.#dropLoad(previous);
    return previous;
  }

  #dropLoad(name: string): void {
    if (this.#carriers.get(name)?.kind === "load") {
      this.#carriers.delete(name);
      this.#due.delete(name);
    }
  }

  // --- carriers of bodies that survive condensation ------------------------------------------------

  /** The active skill whose load result has not been seen in the messages yet. */
  get pendingLoad(): string | undefined {
    const name = this.#active;
    if (name === undefined) return undefined;
    const carrier = this.#carriers.get(name);
    return carrier?.kind === "load" && carrier.fingerprint === undefined ? name : undefined;
  }

  /** Records the message that carries the active skill's load result. */
  placeLoad(name: string, fingerprint: string): void {
    const carrier = this.#carriers.get(name);
    if (carrier?.kind === "load" && carrier.fingerprint === undefined) carrier.fingerprint = fingerprint;
  }

  /** Records a user invocation's body and the message it is attached to; the skill's earlier carrier is replaced. */
  carry(carrier: Carrier): void {
    this.#carriers.delete(carrier.skill);
    this.#due.delete(carrier.skill);
    this.#carriers.set(carrier.skill, { ...carrier });
  }

  /** Forgets a carrier (its body was not re-attached: over the caps, or unreadable). */
  dropCarrier(name: string): void {
    this.#carriers.delete(name);
    this.#due.delete(name);
  }

  /** Carriers whose bodies are due again, most recently activated first. */
  get due(): Carrier[] {
    if (this.#due.size === 0) return [];
    return [...this.#carriers.values()].filter((c) => this.#due.has(c.skill)).reverse();
  }

  // --- nested skill folders --------------------------------------------------------------------------

  /** Nested skill folders revealed so far, relative to the project root. */
  get nested(): ReadonlySet<string> {
    return this.#nested;
  }

  /** Records revealed nested skill folders. */
  reveal(folders: Iterable<string>): void {
    for (const folder of folders) this.#nested.add(folder);
  }

  /** Whether the catalog note of a revealed folder is attached to a present message. */
  isNoted(folder: string): boolean {
    return this.#noted.has(folder);
  }

  // --- session ---------------------------------------------------------------------------------------

  /**
   * The session id (`${CLAUDE_SESSION_ID}`): the one given at create, else a random UUID made on first
   * need (a context that never renders a body or saves its state never loads `node:crypto` for it).
   */
  get sessionId(): string {
    this.#sessionId ??= randomUUID();
    return this.#sessionId;
  }

  /** Sets the session id (once, at create). */
  setSessionId(id: string): void {
    this.#sessionId = id;
  }

  // --- per-skill state --------------------------------------------------------------------------

  /** The state of namespace `namespace` (a copy), or undefined when none was set. */
  skillState(namespace: string): unknown {
    const value = this.#skillStates.get(namespace);
    return value === undefined ? undefined : structuredClone(value);
  }

  /** Replaces the state of `namespace` with a copy of `value` (a JSON value, validated by the caller). */
  setSkillState(namespace: string, value: unknown): void {
    this.#skillStates.set(namespace, structuredClone(value));
  }

  // --- what the model was told of the skills (append mode) ---------------------------------------

  /** The `system` first sent and each told skill's fingerprint, or undefined (not append mode, or nothing sent yet). */
  get told(): SentCatalog | undefined {
    return this.#told;
  }

  /** Records the `system` first sent and the fingerprints of the skills the model now knows. */
  tell(told: SentCatalog): void {
    this.#told = { system: told.system, skills: { ...told.skills } };
  }

  // --- persistence -----------------------------------------------------------------------------

  /** A JSON copy of the state, to pass back as `options.state`. */
  snapshot(): ContextState {
    const state: ContextState = {
      version: 1,
      attachments: this.#attachments.map((a) => ({ ...a })),
      scanned: [...this.#scanned],
      rendered: Object.fromEntries(this.#rendered),
    };
    if (this.#active !== undefined) state.activeSkill = this.#active;
    state.sessionId = this.sessionId;
    if (this.#carriers.size > 0) state.carriers = [...this.#carriers.values()].map((c) => ({ ...c }));
    if (this.#nested.size > 0) state.nested = [...this.#nested];
    if (this.#skillStates.size > 0)
      state.skillStates = Object.fromEntries([...this.#skillStates].map(([k, v]) => [k, structuredClone(v) as never]));
    if (this.#told !== undefined) state.told = { system: this.#told.system, skills: { ...this.#told.skills } };
    return state;
  }
}

function countBySkill(attachments: readonly Attachment[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of attachments)
    if (a.trigger !== "catalog" && a.trigger !== "update" && a.trigger !== "suggest")
      counts.set(a.skill, (counts.get(a.skill) ?? 0) + 1);
  return counts;
}

function notedFolders(attachments: readonly Attachment[]): Set<string> {
  const folders = new Set<string>();
  for (const a of attachments) if (a.trigger === "catalog") folders.add(a.skill);
  return folders;
}

/**
 * Whether the conversation was cut back to before the message `at` (a rewind, an edited earlier
 * message) rather than condensed: every message scanned before it is still there and none scanned
 * after it. `order` is the scan order (the conversation's order of user and tool messages). A
 * message of unknown position, or the first one, counts as condensed: its skill stays.
 */
function cutBackBefore(order: readonly string[], at: string, present: ReadonlySet<string>): boolean {
  const index = order.indexOf(at);
  if (index <= 0) return false;
  for (let i = 0; i < index; i++) if (!present.has(order[i]!)) return false;
  for (let i = index + 1; i < order.length; i++) if (present.has(order[i]!)) return false;
  return true;
}
