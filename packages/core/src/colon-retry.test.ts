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
