/**
 * Catalog entries are one line (Codex: openai/codex codex-rs skills loader `sanitize_single_line`, its test
 * `loads_valid_skill` writes `description: |-` "does things\ncarefully" and expects "does things carefully").
 */
import { describe, expect, it } from "vitest";
import { catalogLine, renderCatalog } from "./catalog.js";
import { parseSkill } from "./parse-skill.js";

describe("catalog entries are one line", () => {
  const skill = parseSkill(
    "---\nname: demo-skill\ndescription: |-\n  does things\n  carefully    and\twell\n---\n# Body\n",
    {
      path: "/x/demo/SKILL.md",
    },
  );

  it("collapses a description's newlines and runs of blanks, as Codex does", () => {
    // The skill keeps its description as written; the entries show one line.
    expect(skill.description).toBe("does things\ncarefully    and\twell");
    expect(catalogLine(skill.description!)).toBe("does things carefully and well");
    expect(renderCatalog([skill])).toContain("<description>does things carefully and well</description>");
    expect(renderCatalog([skill], { format: "markdown" })).toContain(
      "- **demo-skill**: does things carefully and well",
    );
  });
});
