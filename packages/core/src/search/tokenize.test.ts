import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STOP_WORDS } from "./stop-words.js";
import { createUniqueWords, searchTerm, searchTerms, singular, splitWords, uniqueWords } from "./tokenize.js";

describe("splitWords", () => {
  it("splits on punctuation and camel case (keeping the identifier whole too), lower-cases, and keeps letters of every script", () => {
    expect(splitWords("fill-pdf_forms.PDF SkillIndex HTTPServer")).toEqual([
      "fill",
      "pdf",
      "forms",
      "pdf",
      "skillindex",
      "skill",
      "index",
      "httpserver",
      "http",
      "server",
    ]);
    expect(splitWords("café naïve Ünïcode мой-навык")).toEqual(["café", "naïve", "ünïcode", "мой", "навык"]);
  });

  it("makes each character of a script written without spaces a word, and folds compatibility forms (NFKC)", () => {
    expect(splitWords("日本語のPDF")).toEqual(["日", "本", "語", "の", "pdf"]);
    expect(splitWords("ｐｄｆ　ﬁle")).toEqual(["pdf", "file"]);
  });

  it("splits ASCII text (its fast path) as it splits the same text beside non-ASCII text (the Unicode path)", () => {
    // An em dash is a separator to both paths; appended, it sends the whole text down the Unicode path.
    const ascii = fc.string({ unit: fc.constantFrom(..."aZ9_-. \tHTTPServerpdfForms'#(x)".split("")) });
    fc.assert(
      fc.property(ascii, (text) => {
        expect(splitWords(text)).toEqual(splitWords(`${text}\u2014`));
      }),
    );
    expect(splitWords("Prefer pdfForms, HTTPServer and X11-forwarding")).toEqual(
      splitWords("Prefer pdfForms, HTTPServer and X11-forwarding\u2014"),
    );
  });

  it("never throws and yields only non-empty lower-case words, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        for (const word of splitWords(text)) {
          expect(word.length).toBeGreaterThan(0);
          expect(word).toBe(word.toLowerCase());
        }
      }),
    );
  });
});

describe("createUniqueWords", () => {
  it("gives each text's distinct words in order, as uniqueWords does, through many texts (its table grows)", () => {
    const distinct = createUniqueWords();
    expect(distinct("Fill the PDF forms, then the pdfForms: FILL")).toEqual([
      "fill",
      "the",
      "pdf",
      "forms",
      "then",
      "pdfforms",
    ]);
    expect(distinct("café Forms")).toEqual(["café", "forms"]);
    // Non-ASCII text: NFKC first, and ASCII words beside non-ASCII ones listed once, in order.
    expect(distinct("Ｆｏｒｍｓ forms—naïve form日本")).toEqual(["forms", "naïve", "form", "日", "本"]);
    // One text with more distinct words than the first table holds: the table grows mid-text, and keeps
    // which words this text has already listed.
    const many = Array.from({ length: 3000 }, (_, i) => `Word${i} w${i % 700}`).join(" ");
    expect(distinct(many)).toEqual(uniqueWords(many));
    expect(distinct(many).length).toBe(3700);
    // Words of many shapes and cases, each text beside the ones before it in the same table.
    const word = fc.string({ unit: fc.constantFrom(..."abcXYZ019".split("")), minLength: 1, maxLength: 6 });
    const text = fc.array(fc.tuple(word, fc.constantFrom(" ", "-", ".", "_", "\n", "\u00e9 ")), { maxLength: 40 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), (texts) => {
        const fresh = createUniqueWords();
        for (const parts of texts) {
          const joined = parts.map(([w, separator]) => w + separator).join("");
          expect(fresh(joined)).toEqual(uniqueWords(joined));
          expect(distinct(joined)).toEqual(uniqueWords(joined));
        }
      }),
    );
  });
});

describe("searchTerm", () => {
  it("drops stop words and request filler, and single Latin letters", () => {
    // One word of each line of the list, first and last.
    for (const word of [
      "the",
      "please",
      "help",
      "want",
      "a",
      "x",
      "every",
      "himself",
      "yourselves",
      "basically",
      "sure",
    ])
      expect(searchTerm(word, singular)).toBeUndefined();
    expect(STOP_WORDS.has("pdf")).toBe(false);
  });

  it("keeps words that name things or actions, which a stop list of request filler used to drop (issue 33)", () => {
    // "Go" the language, "Expo Go" the app; get/put/use are API and command words.
    for (const word of ["go", "get", "put", "use", "take", "way", "quick"])
      expect(searchTerm(word, singular)).toBe(word);
    expect(searchTerms("build the Expo Go app", singular)).toEqual(["build", "expo", "go", "app"]);
  });

  it("folds plurals only: a word meets its plural, never a different word", () => {
    expect(searchTerm("forms", singular)).toBe("form");
    expect(searchTerm("queries", singular)).toBe("query");
    expect(searchTerm("repos", singular)).toBe("repo");
    expect(searchTerm("types", singular)).toBe("type");
    // The merges a Porter stemmer made (issue 33): each of these stays apart from the shorter word.
    expect(searchTerm("settings", singular)).toBe("setting");
    expect(searchTerm("testers", singular)).toBe("tester");
    expect(searchTerm("added", singular)).toBe("added");
    expect(searchTerm("development", singular)).toBe("development");
    expect(searchTerm("dev", singular)).toBe("dev");
    for (const word of ["class", "status", "analysis", "go", "gas"]) expect(singular(word)).toBe(word);
    expect(searchTerm("навыки", singular)).toBe("навыки");
    // Harman's rules at their edges: four letters are enough, -eies and -aies keep their e and a, a word
    // with ss, us or is before its end still loses its s, and words with a letter past ASCII are not stemmed.
    expect(searchTerm("bugs", singular)).toBe("bug");
    expect(singular("bugs")).toBe("bug");
    expect(singular("bus")).toBe("bus");
    expect([singular("keies"), singular("kaies"), singular("ties")]).toEqual(["keie", "kaie", "ty"]);
    expect([singular("assets"), singular("bonuses"), singular("visits")]).toEqual(["asset", "bonuse", "visit"]);
    for (const word of ["cafés", "éclairs", "pdfés"]) expect(searchTerm(word, singular)).toBe(word);
    expect(searchTerm("日", singular)).toBe("日");
  });

  it("keeps a camel-case identifier whole beside its parts, and an all-capitals one whole only", () => {
    expect(searchTerms("OrderRepo", singular)).toEqual(["orderrepo", "order", "repo"]);
    expect(searchTerms("ESLint rules", singular)).toEqual(["eslint", "es", "lint", "rule"]);
    expect(searchTerms("run eslint", singular)).toEqual(["run", "eslint"]);
    expect(searchTerms("PDF", singular)).toEqual(["pdf"]);
    // An acronym's plural is one word (issue 33: "URLs" had become "ur" and "ls").
    expect(searchTerms("old URLs", singular)).toEqual(["old", "url"]);
    expect(searchTerms("PRsForReview", singular)).toEqual(["prsforreview", "prs", "review"]);
    expect(searchTerms("HTTPServer", singular)).toEqual(["httpserver", "http", "server"]);
  });

  it("a request made of stop words has no terms", () => {
    expect(searchTerms("could you please help me with this, thanks", singular)).toEqual([]);
  });
});
