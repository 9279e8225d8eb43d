/**
 * Runs async work one at a time per key within this process: git sources with the same URL share one
 * cache repository (`<cacheDir>/git/<url hash>/`), and two fetches into it at once collide on git's
 * `shallow.lock`/`index.lock`. A chain of promises per key; the entry is dropped when its chain drains.
 */
const chains = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier `work` of the same `key` settled; its result or rejection is passed through. */
export function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = chains.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return run;
}
