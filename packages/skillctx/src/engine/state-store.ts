import type { Attachment, ContextState } from "./state.js";
import { emptyState } from "./state.js";

/**
 * The one owner and only writer of a conversation's {@link ContextState}: attachments, scan marks,
 * frozen renderings and the active skill. The tracker, the engine and (through the narrow
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

  /** `initial` must be a checked state (`parseContextState`); it is copied. */
  constructor(initial: ContextState = emptyState()) {
    this.#attachments = initial.attachments.map((a) => ({ ...a }));
    this.#attached = countBySkill(this.#attachments);
    this.#scanned = new Set(initial.scanned);
    this.#rendered = new Map(Object.entries(initial.rendered));
    this.#active = initial.activeSkill;
  }

  // --- attachments -----------------------------------------------------------------------------

  /** The frozen attachments, in the order they were made. */
  get attachments(): readonly Attachment[] {
    return this.#attachments;
  }

  /** Whether skill `name` is attached to a message of the conversation. */
  isAttached(name: string): boolean {
    return this.#attached.has(name);
  }

  /** Records attachments made in a step. */
  attach(attachments: readonly Attachment[]): void {
    for (const attachment of attachments) {
      this.#attachments.push({ ...attachment });
      this.#attached.set(attachment.skill, (this.#attached.get(attachment.skill) ?? 0) + 1);
    }
  }

  /** Keeps the attachments (and scan marks) of the messages still present; the others' skills are re-armed. */
  keepPresent(present: ReadonlySet<string>): void {
    if (this.#attachments.some((a) => !present.has(a.fingerprint))) {
      this.#attachments = this.#attachments.filter((a) => present.has(a.fingerprint));
      this.#attached = countBySkill(this.#attachments);
    }
    for (const fingerprint of this.#scanned) if (!present.has(fingerprint)) this.#scanned.delete(fingerprint);
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

  /** Freezes `text` under `key`; a key frozen before keeps its first text. */
  freeze(key: string, text: string): void {
    if (!this.#rendered.has(key)) this.#rendered.set(key, text);
  }

  // --- the active skill ------------------------------------------------------------------------

  /** The skill the model loaded last and has not unloaded. */
  get activeSkill(): string | undefined {
    return this.#active;
  }

  /** Makes `name` the active skill; returns the one active before (undefined when none, or the same). */
  activate(name: string): string | undefined {
    const previous = this.#active;
    this.#active = name;
    return previous === name ? undefined : previous;
  }

  /** Ends the active skill; returns its name, or undefined when none was active. */
  deactivate(): string | undefined {
    const previous = this.#active;
    this.#active = undefined;
    return previous;
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
    return state;
  }
}

function countBySkill(attachments: readonly Attachment[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of attachments) counts.set(a.skill, (counts.get(a.skill) ?? 0) + 1);
  return counts;
}
