import type { ContextStep } from "@skillctx/engine";
import type { Message } from "@skillctx/engine";
import { HistoryPrefix } from "@skillctx/engine/internal";
import { attachmentsByMessage } from "./attachments.js";
import { equalValues } from "@skillctx/core/internal";

/** One skillctx message made from a framework item, and which part of the item it came from. */
export interface ConvertedMessage {
  message: Message;
  /** The part of the item it was read from (a tool result's index in an AI SDK tool message), or 0. */
  part: number;
}

/** How an adapter reads and writes its framework's items. */
export interface ItemCodec<T> {
  /** The skillctx messages of one item (none for an item skillctx does not read). */
  read(item: T): ConvertedMessage[];
  /**
   * The item with attached texts placed in its native form: `texts` maps each part (see
   * {@link ConvertedMessage.part}) to the texts attached to it, in the order appended. More than one item
   * when the text cannot go inside it (it then follows the item).
   */
  attach(item: T, texts: ReadonlyMap<number, readonly string[]>): T[];
}

/**
 * Follows a framework's conversation for an adapter, across steps. Each item is read into skillctx
 * messages once; `buildContext` then gets the same message objects for the items seen before, so the
 * engine reuses its work for them and a step costs time in proportion to the new items.
 *
 * Items are recognised by position, from the ends of the known history: when the first and the last
 * item seen last step are still at their places (the same objects, or equal in content, since the OpenAI
 * Agents runner passes fresh copies every turn), the items between are taken as unchanged and not read
 * at all. Frameworks append to a run's history and never edit it, so a step does not touch the old items;
 * a history that was cut, replaced or started again is compared item by item. The one change not noticed
 * is an item replaced in the middle while the first and last known items stay: the model still gets the
 * host's items, but skillctx does not read the replaced one again.
 */
export class ItemHistory<T> {
  /**
   * The items as last seen: O(1) when the history grew (its first and last known items in place),
   * else compared item by item, by identity or equal content.
   */
  private readonly items = new HistoryPrefix<T>({ same: sameItem, trustEnds: true });
  /** For each item, the index of its first message in `messages`. */
  private starts: number[] = [];
  private messages: Message[] = [];
  /** For each message, the item it came from and the part. */
  private owners: number[] = [];
  private parts: number[] = [];
  /** For each item, the copy with attachments made last step, while its attachments are the same. */
  private placed: ({ count: number; items: T[] } | undefined)[] = [];

  constructor(private readonly codec: ItemCodec<T>) {}

  /**
   * The skillctx messages of `items`; known items give the same objects as before. The array is the
   * history's own and changes at the next `read`: callers make one step at a time (see `serialized` in engine/step-queue.ts).
   */
  read(items: readonly T[]): readonly Message[] {
    const keep = this.items.sameAs(items);
    this.truncate(keep);
    for (let index = keep; index < items.length; index++) {
      const item = items[index]!;
      this.items.push(item);
      this.starts.push(this.messages.length);
      this.placed.push(undefined);
      for (const { message, part } of this.codec.read(item)) {
        this.messages.push(message);
        this.owners.push(index);
        this.parts.push(part);
      }
    }
    return this.messages;
  }

  /**
   * `items` (those last given to {@link read}) with the step's attachments placed in each item's native
   * form. Items without attachments are the same objects; a copy with attachments is made once and
   * reused while the item and its attachments stay the same. With `inPlace` the attached items replace
   * those of `items` itself (for an array the framework made for this step alone), else `items` is left
   * as it is and a new array returned when something is attached.
   */
  attach(items: T[], step: Pick<ContextStep, "attachments">, inPlace: boolean): T[] {
    if (step.attachments.length === 0) return items;
    const byItem = new Map<number, Map<number, string[]>>();
    for (const [messageIndex, texts] of attachmentsByMessage(step)) {
      const owner = this.owners[messageIndex];
      if (owner === undefined) continue;
      let parts = byItem.get(owner);
      if (parts === undefined) byItem.set(owner, (parts = new Map()));
      parts.set(this.parts[messageIndex]!, texts);
    }
    const out = inPlace ? items : items.slice();
    let expanded = false;
    const replaced = new Map<number, T[]>();
    for (const [index, parts] of byItem) {
      let count = 0;
      for (const texts of parts.values()) count += texts.length;
      let placed = this.placed[index];
      if (placed === undefined || placed.count !== count) {
        placed = { count, items: this.codec.attach(items[index]!, parts) };
        this.placed[index] = placed;
      }
      replaced.set(index, placed.items);
      if (placed.items.length !== 1) expanded = true;
      else out[index] = placed.items[0]!;
    }
    if (!expanded) return out;
    return items.flatMap((item, index) => replaced.get(index) ?? [item]);
  }

  private truncate(length: number): void {
    if (length >= this.items.length) return;
    const start = this.starts[length]!;
    this.items.cut(length);
    this.starts.length = length;
    this.placed.length = length;
    this.messages.length = start;
    this.owners.length = start;
    this.parts.length = start;
  }
}

function sameItem(a: unknown, b: unknown): boolean {
  return a === b || equalValues(a, b);
}

/** `text` followed by the attached texts, separated by blank lines (for formats whose tool output is one string). */
export function textWithAttachments(text: string, texts: readonly string[]): string {
  return texts.length === 0 ? text : [text, ...texts].join("\n\n");
}
