import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson } from "@skillctx/core/internal";
import { afterEach, describe, expect, it } from "vitest";
import { casesJsonSchema } from "./case-schema.js";
import { LAYOUTS_DIR, loadLayouts } from "./layouts.js";

const SCHEMA_FILE = fileURLToPath(new URL("../cases.schema.json", import.meta.url));
let dir: string | undefined;

afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function layoutWith(cases: unknown): Promise<string> {
  dir = await mkdtemp(path.join(tmpdir(), "conformance-schema-"));
  await mkdir(path.join(dir, "one", "repo"), { recursive: true });
  await writeFile(path.join(dir, "one", "cases.json"), JSON.stringify(cases));
  return dir;
}

const valid = {
  id: "a",
  rule: "agents-md-chain",
  source: "https://example.com/docs",
  expect: { guidance: ["AGENTS.md"] },
};

describe("cases.json format", () => {
  it("the committed cases.schema.json is the JSON Schema of the zod schema (regenerate with `pnpm conformance`)", async () => {
    expect(parseJson(await readFile(SCHEMA_FILE, "utf8"))).toEqual(casesJsonSchema());
  });

  it("the JSON Schema rejects unknown keys and requires id, rule, source and expect", () => {
    const item = (casesJsonSchema()["items"] ?? {}) as { required?: string[]; additionalProperties?: boolean };
    expect(item.required).toEqual(expect.arrayContaining(["id", "rule", "source", "expect"]));
    expect(item.additionalProperties).toBe(false);
  });

  it("every layout of the corpus parses", async () => {
    const layouts = await loadLayouts(LAYOUTS_DIR);
    expect(layouts.length).toBeGreaterThan(0);
    expect(layouts.every((l) => l.cases.length > 0)).toBe(true);
  });

  it("a valid layout loads with its cases", async () => {
    const layouts = await loadLayouts(await layoutWith([valid]));
    expect(layouts).toEqual([{ slug: "one", cases: [valid] }]);
  });

  it("a misspelt expectation, an option without a flag or a missing source fails the load", async () => {
    await expect(loadLayouts(await layoutWith([{ ...valid, expect: { guidence: ["AGENTS.md"] } }]))).rejects.toThrow(
      /one\/cases\.json.*guidence/s,
    );
    await rm(dir!, { recursive: true });
    await expect(loadLayouts(await layoutWith([{ ...valid, options: { maxBytes: 3 } }]))).rejects.toThrow(/maxBytes/);
    await rm(dir!, { recursive: true });
    const { source: _, ...noSource } = valid;
    await expect(loadLayouts(await layoutWith([noSource]))).rejects.toThrow(/source/);
  });

  it("two cases with one id fail the load", async () => {
    await expect(loadLayouts(await layoutWith([valid, valid]))).rejects.toThrow(/a: duplicate id/);
  });
});
