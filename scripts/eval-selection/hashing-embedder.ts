/**
 * The evaluation's offline stand-in for an embeddings API: no registry package ships sentence-embedding
 * weights usable offline, so meaning is approximated by a deterministic "hashing embedder": each word
 * (lower-cased, 4+ letters cut to its first 5) and each character trigram of the text is hashed into one
 * of 512 buckets, counts are log-scaled and the vector L2-normalised. It sees shared roots and spellings,
 * not synonyms: a fair test of whether fusion with a second, differently-made ranking helps, not of what
 * a real embedding model would add.
 */
export const HASHING_DIMENSIONS = 512;

export function hashingEmbed(text: string): number[] {
  const vector = new Array<number>(HASHING_DIMENSIONS).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const root = word.length >= 4 ? word.slice(0, 5) : word;
    vector[bucket(`w:${root}`)]! += 1;
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) vector[bucket(`t:${padded.slice(i, i + 3)}`)]! += 0.5;
  }
  let norm = 0;
  for (let i = 0; i < vector.length; i++) {
    vector[i] = Math.log1p(vector[i]!);
    norm += vector[i]! * vector[i]!;
  }
  norm = Math.sqrt(norm);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

/** An `embed` option for the index built on {@link hashingEmbed}. */
export async function hashingEmbedTexts(texts: string[]): Promise<number[][]> {
  return texts.map(hashingEmbed);
}

// FNV-1a, 32 bits.
function bucket(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % HASHING_DIMENSIONS;
}
