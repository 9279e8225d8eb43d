import type { Ranked } from "./searchers.js";
import type { Labelled } from "./sets.js";

/** The figures of one searcher on one set, with a cut-off `threshold` on the best score (0: none). */
export interface Figures {
  recall1: number;
  recall5: number;
  mrr: number;
  bodyRecall5: number;
  referenceRecall5: number;
  /** No-skill requests answered with nothing (or, ranking always, marked low confidence). */
  noneEmpty: number;
  /** Answerable requests answered with nothing (or marked low confidence). */
  answerableEmpty: number;
}

const share = (n: number, d: number) => (d === 0 ? Number.NaN : n / d);

/** Rank of the first expected skill in `r` (-1: absent). */
export function rankOf(q: Labelled, r: readonly Ranked[]): number {
  return r.findIndex((x) => q.expect.includes(x.name));
}

/**
 * Scores `results` (no cut-off) on `set`. Recall is of the ranking; a request whose best score is under
 * `threshold` counts in `noneEmpty` / `answerableEmpty` (answered with nothing, or marked low confidence).
 */
export function figures(set: readonly Labelled[], results: readonly Ranked[][], threshold: number): Figures {
  const rows = set.map((q, i) => {
    const r = results[i]!;
    const empty = r.length === 0 || r[0]!.score < threshold || r[0]!.inPassingOnly === true;
    return { q, rank: rankOf(q, r), empty };
  });
  const answerable = rows.filter((x) => x.q.expect.length > 0);
  const top5 = (xs: typeof rows) => share(xs.filter((x) => x.rank >= 0 && x.rank < 5).length, xs.length);
  const none = rows.filter((x) => x.q.expect.length === 0);
  return {
    recall1: share(answerable.filter((x) => x.rank === 0).length, answerable.length),
    recall5: top5(answerable),
    mrr: share(
      answerable.reduce((sum, x) => sum + (x.rank >= 0 ? 1 / (x.rank + 1) : 0), 0),
      answerable.length,
    ),
    bodyRecall5: top5(answerable.filter((x) => x.q.answerIn === "body")),
    referenceRecall5: top5(answerable.filter((x) => x.q.answerIn === "reference")),
    noneEmpty: share(none.filter((x) => x.empty).length, none.length),
    answerableEmpty: share(answerable.filter((x) => x.empty).length, answerable.length),
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
