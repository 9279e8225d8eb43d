/**
 * Maps `items` with at most `limit` calls of `fn` in flight; results keep the order of `items`.
 * After a call rejects (or `signal` aborts), no new call starts; the calls in flight are awaited, then the
 * first rejection is thrown, so nothing started is left unsettled.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let nextIndex = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && !signal?.aborted && nextIndex < items.length) {
      const index = nextIndex++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  signal?.throwIfAborted();
  return results;
}
