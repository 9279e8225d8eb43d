import type { Ranked } from "./searchers.js";

/** One labelled request (a line of eval/selection/queries.jsonl). */
export interface Labelled {
  query: string;
  /** The skill that serves it; null when no skill does. */
  expect: string | null;
  /** `description`: the evidence is in the metadata; `body`: only the body says it; `none`: no skill serves it. */
  kind: "description" | "body" | "none";
  split: "tune" | "held-out";
}

/** What one searcher answered for each request, and how long each took. */
export interface Answers {
  results: Ranked[][];
  timesMs: number[];
}

/** The figures of one searcher on one set of requests. */
export interface Figures {
  recall1: number;
  recall5: number;
  mrr: number;
  bodyRecall5: number;
  noneEmpty: number;
  suggestPrecision: number;
  suggested: number;
  medianMs: number;
}

/**
 * Scores `answers` (already cut off as the searcher ships) on `set`. Suggestion precision: among the
 * requests whose best result scores at least `suggestAt`, the share whose best result is the right skill
 * (any suggestion on a request no skill serves is wrong).
 */
export function figures(set: readonly Labelled[], answers: Answers, suggestAt: number): Figures {
  const answerable = set.map((q, i) => ({ q, r: answers.results[i]! })).filter((x) => x.q.expect !== null);
  const rank = (x: { q: Labelled; r: Ranked[] }) => x.r.findIndex((r) => r.name === x.q.expect);
  const share = (n: number, d: number) => (d === 0 ? 0 : n / d);
  const body = answerable.filter((x) => x.q.kind === "body");
  const none = set.map((q, i) => ({ q, r: answers.results[i]! })).filter((x) => x.q.expect === null);
  let suggested = 0;
  let right = 0;
  set.forEach((q, i) => {
    const top = answers.results[i]![0];
    if (top === undefined || top.score < suggestAt) return;
    suggested++;
    if (top.name === q.expect) right++;
  });
  return {
    recall1: share(answerable.filter((x) => rank(x) === 0).length, answerable.length),
    recall5: share(answerable.filter((x) => rank(x) >= 0 && rank(x) < 5).length, answerable.length),
    mrr: share(
      answerable.reduce((sum, x) => sum + (rank(x) >= 0 ? 1 / (rank(x) + 1) : 0), 0),
      answerable.length,
    ),
    bodyRecall5: share(body.filter((x) => rank(x) >= 0 && rank(x) < 5).length, body.length),
    noneEmpty: share(none.filter((x) => x.r.length === 0).length, none.length),
    suggestPrecision: share(right, suggested),
    suggested,
    medianMs: median(answers.timesMs),
  };
}

/** `results` with a score cut-off applied as the index applies it (nothing when the best is below it). */
export function cutOff(results: readonly Ranked[][], minScore: number): Ranked[][] {
  return results.map((r) => ((r[0]?.score ?? 0) < minScore ? [] : r.filter((x) => x.score >= minScore)));
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
