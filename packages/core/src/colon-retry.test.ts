/**
 * The repair of frontmatter that strict YAML rejects but Codex reads. Cases translated from Codex's own
 * tests: openai/codex codex-rs skills `parser_tests.rs` (`repairs_unrecognized_frontmatter_fields_that_need_quotes`,
 * `preserves_block_scalar_bodies_while_repairing_other_fields`) and `loader_tests.rs`
 * (`loads_unrecognized_frontmatter_fields_that_need_quotes`); the rule is `repair_frontmatter_scalar_fields`.
 */
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "./frontmatter.js";
import { parseSkill, safeParseSkill } from "./parse-skill.js";
import { quoteColonValues } from "./colon-retry.js";

const fm = (...lines: string[]) => `---\n${lines.join("\n")}\n---\nBody.\n`;
const codes = (d: { code: string }[]) => d.map((x) => x.code);

describe("the Codex frontmatter repair", () => {
  it("keeps name and description when another field has an unquoted ': ' and a flow list with '@'", () => {
    const text = fm(
      "name: unknown",
      "description: Unknown fields",
      "argument-hint: <duration: e.g. 7d, 2w>",
      "tags: [next,@supabase/ssr]",
    );
    const { data, diagnostics } = parseFrontmatter(text, { path: "s/SKILL.md", repairFlowValues: true });
    expect(data).toEqual({
      name: "unknown",
      description: "Unknown fields",
      "argument-hint": "<duration: e.g. 7d, 2w>",
      tags: "[next,@supabase/ssr]",
    });
    expect(diagnostics.map((d) => [d.code, d.severity, d.line])).toEqual([
      ["YAML_UNQUOTED_COLON", "warning", 4],
      ["YAML_UNQUOTED_FLOW", "warning", 5],
    ]);
    const skill = parseSkill(text, { path: "/x/unknown/SKILL.md" });
    expect([skill.name, skill.description]).toEqual(["unknown", "Unknown fields"]);
  });

  it("repairs a nested value too (Codex's repair is line-oriented, at any depth)", () => {
    const { data } = parseFrontmatter(
      fm("name: s", "description: d", "metadata:", "  short-description: What's included: builds and tests"),
    );
    expect(data).toEqual({
      name: "s",
      description: "d",
      metadata: { "short-description": "What's included: builds and tests" },
    });
  });

  it("leaves block scalar bodies as written while repairing the other fields", () => {
    const { data } = parseFrontmatter(
      fm("name: block", "description: |-", "  Build for AWS: ECS", "argument-hint: <duration: e.g. 7d>"),
    );
    expect(data).toEqual({ name: "block", description: "Build for AWS: ECS", "argument-hint": "<duration: e.g. 7d>" });
  });

  it("repairs a plain value that starts with a reserved '@' or '`'", () => {
    const { data, diagnostics } = parseFrontmatter(fm("name: s", "description: d", "owner: @team/web"), {
      repairFlowValues: true,
    });
    expect(parseFrontmatter(fm("name: s", "owner: @team/web")).data).toBeUndefined();
    expect(data?.owner).toBe("@team/web");
    expect(codes(diagnostics)).toEqual(["YAML_UNQUOTED_FLOW"]);
  });

  it("leaves a valid flow list alone, and gives up on a flow value that spans lines", () => {
    expect(quoteColonValues("tags: [a, b]\nx: y: z", { flowLike: true })?.quoted.map((q) => q.kind)).toEqual(["colon"]);
    // Flow-like values are a SKILL.md rule (Codex); other files keep the colon repair only.
    expect(quoteColonValues("tags: [a, @b]")).toBeUndefined();
    const spanning = "tags: [a,\n  @b]\nname: s";
    expect(quoteColonValues(spanning, { flowLike: true })).toBeUndefined();
    const { data, diagnostics } = parseFrontmatter(fm("name: s", "tags: [a,", "  @b]"), { repairFlowValues: true });
    expect(data).toBeUndefined();
    expect(codes(diagnostics)).toContain("YAML_INVALID");
  });

  it("keeps unrelated broken YAML an error (the repair is kept only when the whole block then parses)", () => {
    const result = safeParseSkill(fm("name: s", "description: d", "tags: [a, @b]", "bad: [unclosed", "  more"), {
      path: "/x/s/SKILL.md",
    });
    expect(result.ok).toBe(true);
    if (result.ok) expect(codes(result.diagnostics)).toContain("YAML_INVALID");
  });
});

// The repaired text itself, line for line: what the retry parses and what the warnings point at.
describe("quoteColonValues: the text it writes", () => {
  const repair = (block: string, flowLike = false) => quoteColonValues(block, { flowLike });

  it("quotes a multi-line plain value from its first line to its last, trailing blanks trimmed", () => {
    const block = "a: one: two  \n  more words  \n  last\nb: ok";
    expect(repair(block)).toEqual({
      text: 'a: "one: two\n  more words\n  last"\nb: ok',
      quoted: [{ line: 0, value: "one: two\n  more words  \n  last", kind: "colon" }],
    });
    expect(parseFrontmatter(fm("name: s", block)).data).toEqual({ name: "s", a: "one: two more words last", b: "ok" });
  });

  it("leaves the blank lines after a value outside its quotes", () => {
    expect(repair("a: x: y\n\n\nb: ok")?.text).toBe('a: "x: y"\n\n\nb: ok');
    expect(repair("a: x: y\n  more\n\nb: ok")?.text).toBe('a: "x: y\n  more"\n\nb: ok');
  });

  it("escapes quotes and backslashes on every line it takes in", () => {
    expect(repair('a: say: "hi"\n  C:\\dir "x"')?.text).toBe('a: "say: \\"hi\\"\n  C:\\\\dir \\"x\\""');
  });

  it("repairs every value of the block, and none inside a quoted value that spans lines", () => {
    const block = 'a: x: y\nb: "start\n  end: z: q"\nc: u: v';
    expect(repair(block)).toEqual({
      text: 'a: "x: y"\nb: "start\n  end: z: q"\nc: "u: v"',
      quoted: [
        { line: 0, value: "x: y", kind: "colon" },
        { line: 3, value: "u: v", kind: "colon" },
      ],
    });
  });

  it("quotes a value that ends with a colon, and leaves a URL or a time alone", () => {
    expect(repair("a: note:\nb: ok")?.quoted).toEqual([{ line: 0, value: "note:", kind: "colon" }]);
    expect(repair("a: see http://x.y/z\nb: at 10:30")).toBeUndefined();
  });

  it("leaves a value with a ` #` comment alone, but not a '#' inside a word (C#)", () => {
    expect(repair("a: x: y # note")).toBeUndefined();
    expect(repair("a: x: y\t# note")).toBeUndefined();
    expect(repair("description: Languages: C# and F#")?.text).toBe('description: "Languages: C# and F#"');
  });

  it("rewrites a top-level `name:value` or `description:value` line without a space (Gemini CLI's reader)", () => {
    expect(repair("name:no-space-name  \ndescription:Does things")).toEqual({
      text: 'name: "no-space-name"\ndescription: "Does things"',
      quoted: [
        { line: 0, value: "no-space-name", kind: "no-space" },
        { line: 1, value: "Does things", kind: "no-space" },
      ],
    });
    // Only at column 0, only those two keys, only a value that does not open with a quote or a blank.
    expect(repair("  name:nested")).toBeUndefined();
    expect(repair("myname:x")).toBeUndefined();
    expect(repair('name:"quoted"')).toBeUndefined();
  });

  it("repairs a flow value that does not parse, names its kind, and leaves one with a comment alone", () => {
    expect(repair("tags: [a#b, @c]", true)).toEqual({
      text: 'tags: "[a#b, @c]"',
      quoted: [{ line: 0, value: "[a#b, @c]", kind: "flow" }],
    });
    expect(repair("tags: [@a] # note", true)).toBeUndefined();
    expect(repair("cmd: `npm test` first", true)?.quoted).toEqual([
      { line: 0, value: "`npm test` first", kind: "flow" },
    ]);
  });

  it("repairs a broken flow value followed by a blank line or a line at its key's column", () => {
    expect(repair("meta:\n  tags: [next,@x]\n      \nname: s", true)?.quoted).toEqual([
      { line: 1, value: "[next,@x]", kind: "flow" },
    ]);
    expect(repair("tags: [next,@x]\nfoo", true)?.text).toBe('tags: "[next,@x]"\nfoo');
    // A line indented past the key goes on with the flow value: the repair gives up.
    expect(repair("tags: [next,@x]\n  foo", true)).toBeUndefined();
  });
});

describe("quoteColonValues: corners", () => {
  const repair = (block: string, flowLike = false) => quoteColonValues(block, { flowLike });

  it("leaves a line of spaces after a value outside its quotes", () => {
    expect(repair("a: x: y\n   \nb: ok")?.text).toBe('a: "x: y"\n   \nb: ok');
  });

  it("leaves a `name:` line holding a line separator alone rather than cut it there", () => {
    expect(repair("name:abc\u2028def")).toBeUndefined();
  });

  it("never turns a flow value nested past the depth cap into text", () => {
    const deep = `tags: ${"[".repeat(65)}@x${"]".repeat(65)}`;
    expect(repair(deep, true)).toBeUndefined();
    expect(repair(`tags: ${"[".repeat(3)}@x${"]".repeat(3)}`, true)?.quoted.map((q) => q.kind)).toEqual(["flow"]);
  });
});
