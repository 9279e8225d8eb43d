// The engine's decoding of a model's tool arguments, in process (the adapters' tests reach it through whole
// agent loops): what a tool receives, what error result the model gets back, and the JSON Schema it is shown.
import { zod } from "@skillctx/core/internal";
import { describe, expect, it } from "vitest";
import { lineNumber, normalizeArgs, parseToolArgs, skillName, toolInputSchema } from "./tool-args.js";

const z = zod();
const schema = z.object({ skill: z.string(), options: z.object({ depth: z.number() }).optional() });

describe("parseToolArgs", () => {
  it("accepts an object, JSON text of one, and reads nothing, null or blank text as {}", () => {
    expect(parseToolArgs("t", schema, { skill: "pdf" })).toEqual({ ok: true, value: { skill: "pdf" } });
    expect(parseToolArgs("t", schema, '{"skill":"pdf"}')).toEqual({ ok: true, value: { skill: "pdf" } });
    const empty = z.object({ limit: z.number().optional() });
    for (const args of [undefined, null, "", "  "])
      expect(parseToolArgs("t", empty, args)).toEqual({ ok: true, value: {} });
  });

  it("refuses text that is not JSON with an error result naming the tool", () => {
    expect(parseToolArgs("load_skill", schema, '{"skill":')).toEqual({
      ok: false,
      result: { content: "Invalid arguments for load_skill: arguments must be a JSON object", isError: true },
    });
  });

  it("names each bad field by its path, joined with '; ', and a bad root without a path", () => {
    const result = parseToolArgs("load_skill", schema, { skill: 3, options: { depth: "x" } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.result.isError).toBe(true);
    expect(result.result.content).toMatch(/^Invalid arguments for load_skill: skill: [^;]+; options\.depth: [^;]+$/u);
    const root = parseToolArgs("t", schema, "[1]");
    const issue = schema.safeParse([1]).error!.issues[0]!;
    expect(issue.path).toEqual([]);
    expect(!root.ok && root.result.content).toBe(`Invalid arguments for t: ${issue.message}`);
  });
});

describe("normalizeArgs", () => {
  it("keeps a decoded value as it is and explains text that is not JSON", () => {
    const args = { a: 1 };
    const normal = normalizeArgs(args);
    expect(normal.ok && normal.value).toBe(args);
    expect(normalizeArgs("nope")).toEqual({ ok: false, message: "arguments must be a JSON object" });
  });
});

describe("toolInputSchema", () => {
  it("gives the JSON Schema without $schema and without the safe-integer bounds zod writes", () => {
    const json = toolInputSchema(
      z.object({ n: z.number().int(), m: z.number().int().min(1).max(9), list: z.array(z.number().int()) }),
    );
    expect(json).not.toHaveProperty("$schema");
    const properties = json.properties as Record<string, Record<string, unknown>>;
    expect(properties.n).toEqual({ type: "integer" });
    expect(properties.m).toEqual({ type: "integer", minimum: 1, maximum: 9 });
    expect(properties.list).toEqual({ type: "array", items: { type: "integer" } });
    expect(json.required).toEqual(["n", "m", "list"]);
  });

  it("strips the bounds inside arrays of schemas too", () => {
    const json = toolInputSchema(z.object({ v: z.union([z.number().int(), z.string()]) }));
    expect((json.properties as Record<string, unknown>).v).toEqual({
      anyOf: [{ type: "integer" }, { type: "string" }],
    });
  });
});

describe("lineNumber and skillName", () => {
  it("reads a numeric string (with spaces) as a line number of at least 1", () => {
    const line = lineNumber(z);
    expect(line.parse(" 12 ")).toBe(12);
    expect(line.parse(3)).toBe(3);
    for (const bad of ["0", "1.5", "x1", "", 0, 1.5]) expect(line.safeParse(bad).success, String(bad)).toBe(false);
  });

  it("trims a skill name and refuses a blank one", () => {
    expect(skillName(z).parse("  pdf ")).toBe("pdf");
    expect(skillName(z).safeParse("   ").success).toBe(false);
  });
});
