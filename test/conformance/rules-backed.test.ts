/**
 * Every rule of docs/conventions.md ("Rules: one per file kind, per agent") is backed by at least one
 * case of the conformance corpus, and every case names a rule of that table: a rule nobody checks, or
 * a case checking a rule nobody wrote down, fails here.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { loadLayouts } from "@skillctx/conformance";

async function ruleIds(): Promise<string[]> {
  const doc = await readFile(path.join(ROOT, "docs/conventions.md"), "utf8");
  const start = doc.indexOf("## Rules: one per file kind, per agent");
  const end = doc.indexOf("### Where agents disagree", start);
  if (start === -1 || end === -1) throw new Error("docs/conventions.md has no rules table");
  return [...doc.slice(start, end).matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]!);
}

describe("docs/conventions.md rules and the conformance corpus", async () => {
  const ids = await ruleIds();
  const cases = (await loadLayouts()).flatMap((layout) => layout.cases.map((c) => ({ ...c, slug: layout.slug })));

  it("the table has rules and no id twice", () => {
    expect(ids.length).toBeGreaterThanOrEqual(25);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("every rule has at least one case", () => {
    const backed = new Set(cases.map((c) => c.rule));
    expect(ids.filter((id) => !backed.has(id))).toEqual([]);
  });

  it("every case names a rule of the table and a source", () => {
    const known = new Set(ids);
    expect(cases.filter((c) => !known.has(c.rule)).map((c) => `${c.slug}#${c.id}: ${c.rule}`)).toEqual([]);
    for (const c of cases) expect(c.source.length, `${c.slug}#${c.id}`).toBeGreaterThan(10);
  });
});
