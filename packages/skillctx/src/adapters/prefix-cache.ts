import { HistoryPrefix } from "@skillctx/engine/internal";

/**
 * Converts a conversation's list of messages by position, reusing the previous conversion of the same
 * conversation up to the first element that changed, so a step converts only what is new. A
 * conversation is recognised by its first element (the same object from step to step); elements are
 * compared by identity, which is what the engine does with the history too.
 *
 * `convertFrom(start, out, ends)` converts `inputs[start..]`, appending to `out` and, for each output,
 * to `ends` the index just past the last input it was made from. An output is reused only when every
 * input it was made from is unchanged, so a group of inputs (several skillctx messages from one
 * Anthropic message) is never split. A call costs one pass of identity checks and one copy of the
 * result (callers may change it), plus the conversion of what is new.
 */
export class PrefixCache<I extends object, O> {
  private readonly conversations = new WeakMap<I, { inputs: HistoryPrefix<I>; out: O[]; ends: number[] }>();

  convert(inputs: readonly I[], convertFrom: (start: number, out: O[], ends: number[]) => void): O[] {
    const first = inputs[0];
    if (typeof first !== "object" || first === null) {
      const out: O[] = [];
      convertFrom(0, out, []);
      return out;
    }
    let known = this.conversations.get(first);
    if (known === undefined)
      this.conversations.set(first, (known = { inputs: new HistoryPrefix<I>(), out: [], ends: [] }));
    const same = known.inputs.sameAs(inputs);
    const keep = keptOutputs(known.ends, same);
    const start = keep === 0 ? 0 : known.ends[keep - 1]!;
    known.out.length = keep;
    known.ends.length = keep;
    known.inputs.cut(start);
    // Should convertFrom throw, the outputs it added end past `known.inputs`, so the next call drops them.
    convertFrom(start, known.out, known.ends);
    known.inputs.see(inputs, start);
    return known.out.slice();
  }
}

/** Each input converted to zero or more outputs, through `cache` (see {@link PrefixCache.convert}). */
export function convertEach<I extends object, O>(
  cache: PrefixCache<I, O>,
  inputs: readonly I[],
  convert: (input: I, index: number) => O | readonly O[],
): O[] {
  return cache.convert(inputs, (start, out, ends) => {
    for (let index = start; index < inputs.length; index++) {
      const made = convert(inputs[index]!, index);
      if (!Array.isArray(made)) {
        out.push(made as O);
        ends.push(index + 1);
        continue;
      }
      for (const one of made as readonly O[]) {
        out.push(one);
        ends.push(index + 1);
      }
    }
  });
}

// How many outputs were made only from the first `same` inputs (`ends` is non-decreasing).
function keptOutputs(ends: readonly number[], same: number): number {
  let low = 0;
  let high = ends.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ends[middle]! <= same) low = middle + 1;
    else high = middle;
  }
  return low;
}
