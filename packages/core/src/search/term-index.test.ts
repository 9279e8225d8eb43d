import fc from "fast-check";
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { TermIndex } from "./term-index.js";

// TermIndex claims MiniSearch 7's scores for exact terms combined with OR. MiniSearch (a devDependency) is
// the oracle: the same documents, adds, replacements and removals, the same searches, the same results.

const FIELDS = ["title", "text"] as const;
type Field = (typeof FIELDS)[number];
type Doc = Record<Field, string> & { id: string };

const BM25 = { k: 1.2, b: 1, d: 0 };
const tokenize = (text: string): string[] => text.split(" ").filter((word) => word !== "");
// Two words become one term ("forms" → "form"), and one is a stop word: occurrences above one, and holes.
const processTerm = (word: string): string | null => (word === "the" ? null : word.replace(/s$/, ""));
const WEIGHTS = { title: 3, text: 0.5 };

function both(): { ours: TermIndex<Field>; mini: MiniSearch<Doc> } {
  return {
    ours: new TermIndex<Field>({ fields: FIELDS, tokenize, processTerm, bm25: BM25 }),
    mini: new MiniSearch<Doc>({ fields: [...FIELDS], tokenize, processTerm, searchOptions: { bm25: BM25 } }),
  };
}

function miniSearch(mini: MiniSearch<Doc>, terms: string[]) {
  return mini
    .search(terms.join(" "), { boost: WEIGHTS, combineWith: "OR", tokenize: () => terms, processTerm: (t) => t })
    .map((r) => ({ id: r.id as string, score: r.score, queryTerms: r.queryTerms, match: r.match }));
}

// Documents whose scores are equal to the last bit come in each index's own order (MiniSearch walks a term's
// postings field by field, TermIndex document by document): such ties are compared in id order.
const byScoreThenId = <R extends { id: string; score: number }>(results: R[]): R[] =>
  results.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

function expectSame(ours: TermIndex<Field>, mini: MiniSearch<Doc>, terms: string[]): void {
  const expected = byScoreThenId(miniSearch(mini, terms));
  const actual = byScoreThenId(ours.search(terms, WEIGHTS));
  expect(actual.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  actual.forEach((result, i) => {
    expect(result.score).toBeCloseTo(expected[i]!.score, 9);
    expect(result.queryTerms).toEqual(expected[i]!.queryTerms);
    expect(result.match).toEqual(expected[i]!.match);
  });
}

const WORDS = ["pdf", "forms", "form", "docker", "the", "zebra", "cache", "caches", "deploy", "review"];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(" "));
const doc = fc.record({ title: text, text });

describe("TermIndex scores as MiniSearch does", () => {
  it("finds the same documents in the same order with the same scores, through adds, replacements and removals", () => {
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(11), { maxLength: 4 }),
        fc.array(fc.constantFrom(...WORDS.filter((w) => w !== "the")), { minLength: 1, maxLength: 4 }),
        (docs, removed, words) => {
          const terms = [...new Set(words.map((w) => processTerm(w)!))];
          const { ours, mini } = both();
          docs.forEach((d, i) => {
            ours.add(`d${i}`, d);
            mini.add({ id: `d${i}`, ...d });
          });
          expectSame(ours, mini, terms);
          for (const i of new Set(removed.filter((r) => r < docs.length))) {
            ours.remove(`d${i}`, docs[i]!);
            mini.remove({ id: `d${i}`, ...docs[i]! });
          }
          expectSame(ours, mini, terms);
          // A replacement goes to the end, as a new document does in MiniSearch.
          if (ours.has("d0")) ours.remove("d0", docs[0]!);
          ours.add("d0", { title: "zebra pdf", text: "deploy" });
          if (mini.has("d0")) mini.remove({ id: "d0", ...docs[0]! });
          mini.add({ id: "d0", title: "zebra pdf", text: "deploy" });
          expectSame(ours, mini, terms);
          expect(ours.size).toBe(mini.documentCount);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("counts a word once per field length, a term as often as its words occur, and a stop word nowhere", () => {
    const { ours } = both();
    ours.add("a", { title: "forms form", text: "the" });
    ours.add("b", { title: "pdf", text: "form" });
    const [a, b] = ours.search(["form"], WEIGHTS);
    // "forms form" holds the term twice in a title as long as b's: a ranks first; "the" matches nothing.
    expect(a!.id).toBe("a");
    expect(b!.id).toBe("b");
    expect(a!.match).toEqual({ form: ["title"] });
    expect(b!.match).toEqual({ form: ["text"] });
    expect(ours.search(["the"], WEIGHTS)).toEqual([]);
  });

  it("refuses an id that is indexed already (a replacement removes first)", () => {
    const { ours } = both();
    ours.add("a", { title: "pdf", text: "" });
    expect(() => ours.add("a", { title: "zebra", text: "" })).toThrow(/indexed already/);
    expect(ours.search(["pdf"], WEIGHTS).map((r) => r.id)).toEqual(["a"]);
  });

  it("drops the entries of replaced documents even for terms never searched (a long-lived index stays bounded)", () => {
    const { ours, mini } = both();
    ours.add("kept", { title: "pdf", text: "cache" });
    mini.add({ id: "kept", title: "pdf", text: "cache" });
    for (let i = 0; i < 1_000; i++) {
      const before = { title: `zebra ${i % 7 === 0 ? "forms" : "deploy"}`, text: "review docker" };
      if (i > 0)
        ours.remove("edited", { title: `zebra ${(i - 1) % 7 === 0 ? "forms" : "deploy"}`, text: "review docker" });
      ours.add("edited", before);
    }
    mini.add({ id: "edited", title: "zebra deploy", text: "review docker" });
    // Six entries are live (pdf, cache, zebra, deploy, review, docker); the dead ones never outnumber them much.
    expect(ours.postingEntries).toBeLessThanOrEqual(12);
    expectSame(ours, mini, ["zebra", "deploy", "review", "pdf", "form"]);
  });

  it("forgets a removed document's terms and lengths", () => {
    const { ours } = both();
    ours.add("a", { title: "zebra", text: "" });
    ours.add("b", { title: "pdf forms", text: "" });
    ours.remove("a", { title: "zebra", text: "" });
    expect(ours.has("a")).toBe(false);
    expect(ours.search(["zebra"], WEIGHTS)).toEqual([]);
    // Alone again, b scores as the only document of a fresh index.
    const fresh = both().ours;
    fresh.add("b", { title: "pdf forms", text: "" });
    expect(ours.search(["pdf"], WEIGHTS)).toEqual(fresh.search(["pdf"], WEIGHTS));
  });
});
