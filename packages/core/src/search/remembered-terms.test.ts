import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { rememberingMiniSearch } from "./remembered-terms.js";

interface Doc {
  id: string;
  text: string;
}

const OPTIONS = { fields: ["text"], storeFields: ["text"] };

// The same adds, discards, replacements and vacuums on a plain MiniSearch and on the remembering one.
async function churn(index: MiniSearch<Doc>): Promise<void> {
  index.addAll([
    { id: "a", text: "fill pdf forms" },
    { id: "b", text: "docker images and layer caching" },
    { id: "c", text: "rare zebra word" },
  ]);
  // "zebra" and "rare" lose their only document; the vacuum deletes those terms from the radix tree.
  index.discard("c");
  await index.vacuum({ batchSize: 1, batchWait: 0 });
  // Terms come back after their deletion: their postings must go into the tree, not a forgotten Map.
  index.add({ id: "c", text: "zebra crossing" });
  index.replace({ id: "a", text: "merge pdf files, rare" });
  index.discard("b");
  await index.vacuum();
  index.add({ id: "d", text: "docker zebra pdf" });
}

describe("rememberingMiniSearch", () => {
  it("holds the same index and finds the same results as MiniSearch through adds, discards and vacuums", async () => {
    const Remembering = rememberingMiniSearch(MiniSearch);
    const plain = new MiniSearch<Doc>(OPTIONS);
    const remembering = new Remembering<Doc>(OPTIONS);
    await churn(plain);
    await churn(remembering);
    expect(remembering).toBeInstanceOf(MiniSearch);
    expect(JSON.stringify(remembering)).toBe(JSON.stringify(plain));
    for (const query of ["zebra", "rare", "pdf", "docker", "crossing", "caching", "forms"]) {
      expect(remembering.search(query)).toEqual(plain.search(query));
    }
    expect(remembering.search("zebra").map((r) => r.id)).toEqual(expect.arrayContaining(["c", "d"]));
    expect(remembering.search("caching")).toEqual([]);
  });
});
