/**
 * Tracking the repeated history prefix: a conversation is sent again at every step with new messages
 * (or items) at its end, so the engine and the adapters keep what they derived for the leading
 * elements that are still the ones seen before and redo only the rest. This is the one place that
 * decides how many leading elements are unchanged.
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

// The identity comparison alone: a hot loop of every step, kept small for the JIT.
function identicalPrefix<T>(next: readonly T[], known: readonly T[]): number {
  const limit = Math.min(next.length, known.length);
  let count = 0;
  while (count < limit && next[count] === known[count]) count++;
  return count;
}
