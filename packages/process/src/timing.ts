/** Waits for `promise` to settle, at most `ms`; clears its timer either way and never rejects. */
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref(); // a bounded wait never keeps the host alive on its own
    }),
  ]);
  clearTimeout(timer);
}
