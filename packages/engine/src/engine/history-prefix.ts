/**
 * Tracking the repeated history prefix: a conversation is sent again at every step with new messages
 * (or items) at its end, so the engine and the adapters keep what they derived for the leading
 * elements that are still the ones seen before and redo only the rest. This is the one place that
 * knows which elements of a history were seen before ({@link HistoryPrefix}) and decides how many
 * leading elements are unchanged ({@link samePrefixLength}). The conversation tracker (engine
 * conversation.ts) and the adapters' `ItemHistory` and `PrefixCache` each hold one and keep beside
 * it only what they derive per element.
 */

/** How elements are compared, and whether the ends decide. */
export interface PrefixOptions<T> {
  /** Whether two elements are the same. @default identity (`===`) */
  same?: (next: T, known: T) => boolean;
  /**
   * When the history grew and its first and last known elements are still at their places, take the
   * ones between as unchanged without comparing them (O(1) per step): for frameworks that append to a
   * history and never edit it. An element replaced in the middle is then not noticed.
   * @default false
   */
  trustEnds?: boolean;
}

/**
 * How many leading elements of `next` are the same as those of `known` (at most the shorter length).
 *
 * @example
 * const a = {}, b = {}, c = {};
 * samePrefixLength([a, b, c], [a, b]); // 2
 * samePrefixLength([a, c], [a, b]); // 1
 */
export function samePrefixLength<T>(next: readonly T[], known: readonly T[], options: PrefixOptions<T> = {}): number {
  const { same, trustEnds = false } = options;
  if (same === undefined && !trustEnds) return identicalPrefix(next, known);
  const eq = same ?? ((a: T, b: T) => a === b);
  const last = known.length - 1;
  if (last < 0) return 0;
  if (trustEnds && next.length > last && eq(next[last]!, known[last]!) && eq(next[0]!, known[0]!)) return known.length;
  const limit = Math.min(next.length, known.length);
  let count = 0;
  while (count < limit && eq(next[count]!, known[count]!)) count++;
  return count;
}

/**
 * The elements of one history seen so far. A user asks {@link sameAs} how many leading elements of
 * the next history are unchanged, cuts what it derived past that point (and this prefix with
 * {@link cut}), then records the new elements with {@link see} once its work on them succeeded, so a
 * step that fails half-way is redone next time.
 *
 * @example
 * const seen = new HistoryPrefix<Message>();
 * const same = seen.sameAs(messages); // 0 at first
 * seen.cut(same);
 * // ... derive what is needed for messages[same..] ...
 * seen.see(messages, same);
 */
export class HistoryPrefix<T> {
  private readonly seen: T[] = [];

  constructor(private readonly options: PrefixOptions<T> = {}) {}

  /** How many elements are recorded as seen. */
  get length(): number {
    return this.seen.length;
  }

  /** How many leading elements of `next` are the ones seen (at most the shorter length); changes nothing. */
  sameAs(next: readonly T[]): number {
    return samePrefixLength(next, this.seen, this.options);
  }

  /** Forgets the elements from `length` on. */
  cut(length: number): void {
    if (length < this.seen.length) this.seen.length = length;
  }

  /** Records `next[from..]` as seen, after the first `from` elements (cut to `from` first when longer). */
  see(next: readonly T[], from: number): void {
    this.cut(from);
    for (let index = from; index < next.length; index++) this.seen.push(next[index]!);
  }

  /** Records one element as seen, at the end. */
  push(element: T): void {
    this.seen.push(element);
  }
}

// The identity comparison alone: a hot loop of every step, kept small for the JIT.
function identicalPrefix<T>(next: readonly T[], known: readonly T[]): number {
  const limit = Math.min(next.length, known.length);
  let count = 0;
  while (count < limit && next[count] === known[count]) count++;
  return count;
}
