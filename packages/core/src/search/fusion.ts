/**
 * The host's embedding function: one vector per text, in order (the request first, then skills).
 * Any provider's embeddings API fits; vectors of one function must share a length.
 */
export type EmbedTexts = (
  texts: string[],
  options: { signal?: AbortSignal | undefined },
) => Promise<readonly (readonly number[])[]>;

// Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher 2009): ranks past the first few matter little.
const RRF_K = 60;

/** Ids ranked by reciprocal rank fusion of `rankings` (each best first); ties keep the first ranking's order. */
export function fuseRankings(rankings: readonly (readonly string[])[]): string[] {
  const scores = new Map<string, number>();
  const first = new Map<string, number>();
  rankings.forEach((ranking, r) =>
    ranking.forEach((id, rank) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
      if (!first.has(id)) first.set(id, r * 1e6 + rank);
    }),
  );
  return [...scores.keys()].sort((a, b) => scores.get(b)! - scores.get(a)! || first.get(a)! - first.get(b)!);
}

/** Ids by cosine similarity to `query`, best first; entries without a vector (or a zero one) are left out. */
export function vectorRanking(
  query: readonly number[],
  entries: readonly { id: string; vector: readonly number[] | undefined }[],
): string[] {
  const scored: { id: string; similarity: number }[] = [];
  for (const { id, vector } of entries) {
    if (vector === undefined) continue;
    const similarity = cosine(query, vector);
    if (similarity > 0) scored.push({ id, similarity });
  }
  return scored.sort((a, b) => b.similarity - a.similarity).map((s) => s.id);
}

/** Cosine similarity of two vectors (0 when either is zero or their lengths differ). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
