import { describe, expect, it } from "vitest";
import { MAX_SEARCH_QUERY_CHARS } from "../limits.js";
import { cachedTerm, queryTerms, requestTerms } from "./query-terms.js";

const entries = (query: string) => [...queryTerms(query)];

describe("queryTerms", () => {
  it("weighs each word of a request 1, stop words out, plurals folded, each term once", () => {
    expect(entries("Please fill the PDF forms and the form fields")).toEqual([
      ["fill", 1],
      ["pdf", 1],
      ["form", 1],
      ["field", 1],
    ]);
  });

  it("weighs the parts of an identifier named whole at 0.3, and a part also named alone at 1 in either order", () => {
    expect(entries("ESLint rules")).toEqual([
      ["eslint", 1],
      ["es", 0.3],
      ["lint", 0.3],
      ["rule", 1],
    ]);
    expect(entries("fix OrderRepo")).toEqual([
      ["fix", 1],
      ["orderrepo", 1],
      ["order", 0.3],
      ["repo", 0.3],
    ]);
    expect(entries("order OrderRepo")).toEqual([
      ["order", 1],
      ["orderrepo", 1],
      ["repo", 0.3],
    ]);
    expect(entries("OrderRepo order")).toEqual([
      ["orderrepo", 1],
      ["order", 1],
      ["repo", 0.3],
    ]);
    // Three parts, and two identifiers in one chunk of text (split at punctuation).
    expect(entries("HTTPServerConfig/OrderRepo")).toEqual([
      ["httpserverconfig", 1],
      ["http", 0.3],
      ["server", 0.3],
      ["config", 0.3],
      ["orderrepo", 1],
      ["order", 0.3],
      ["repo", 0.3],
    ]);
  });

  it("keeps at 1 the words of other chunks that spell an earlier word, and a word followed by itself", () => {
    expect(entries("docker compose")).toEqual([
      ["docker", 1],
      ["compose", 1],
    ]);
    expect(entries("pdfform pdf form")).toEqual([
      ["pdfform", 1],
      ["pdf", 1],
      ["form", 1],
    ]);
    expect(entries("pdf-pdf")).toEqual([["pdf", 1]]);
  });

  it("searches at most 64 distinct terms, and reads only the head of a long request", () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`);
    const terms = entries(words.join(" "));
    expect(terms).toHaveLength(64);
    expect(terms.at(-1)).toEqual(["word63", 1]);
    const tail = `${"x ".repeat(MAX_SEARCH_QUERY_CHARS / 2)}zeppelin`;
    expect(entries(tail)).toEqual([]);
    expect(entries(`${"x ".repeat(MAX_SEARCH_QUERY_CHARS / 2 - 5)}zeppelin`)).toEqual([["zeppelin", 1]]);
  });

  it("has no terms for a request that is not a string", () => {
    expect(queryTerms(42 as unknown as string).size).toBe(0);
    expect(queryTerms(undefined as unknown as string).size).toBe(0);
  });
});

describe("requestTerms", () => {
  it("lists the terms of a request as the index sees them, and reads any value as text", async () => {
    await expect(requestTerms("Please fill the PDF forms")).resolves.toEqual(["fill", "pdf", "form"]);
    await expect(requestTerms(404 as unknown as string)).resolves.toEqual(["404"]);
  });
});

describe("cachedTerm", () => {
  it("gives a word's term, null for a stop word, the same on every call", () => {
    expect(cachedTerm("forms")).toBe("form");
    expect(cachedTerm("forms")).toBe("form");
    expect(cachedTerm("the")).toBeNull();
    expect(cachedTerm("the")).toBeNull();
  });
});
