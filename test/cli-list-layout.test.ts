// Issue 37: `list` reads at 80 columns, laid out by `formatList` (packages/cli/src/list-layout.ts): name,
// trigger and who may invoke on one line, at least 40 characters of each description under it, nothing
// past the width; when scope, arguments and tokens would leave the names too little room, they move to a
// line under the row instead of pushing every name onto a line of its own. The built CLI's own run at
// COLUMNS=80 is in test/cli-context-view.test.ts.
import { describe, expect, it } from "vitest";
import { formatList } from "../packages/cli/src/list-layout.js";
import type { ListedSkill } from "../packages/cli/src/listed-skill.js";

const within = (text: string, width: number) => {
  for (const line of text.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(width);
};

describe("list at 80 columns (the layout)", () => {
  it("keeps 40 characters of every description at 80 columns however long the names (the layout itself)", () => {
    const long = "Analyze a GitHub pull request and write a review with the risks, the tests to add and the questions";
    const skills = Array.from({ length: 3 }, (_, i) => ({
      name: `a-rather-long-skill-name-from-a-plugin-${i}`,
      scope: "project" as const,
      origin: null,
      path: `/r/.claude/skills/s${i}/SKILL.md`,
      trigger: "on-demand" as const,
      description: long,
      invocation: { model: true, user: `/s${i}` },
      argumentHint: i === 0 ? "[pr-number]" : null,
    }));
    const text = formatList(skills, "/r", { tokens: false, wide: false, columns: 80 });
    const descriptions = text.split("\n").filter((l) => l.startsWith("    "));
    expect(descriptions.length).toBeGreaterThanOrEqual(3);
    for (const line of text.split("\n")) expect([...line].length).toBeLessThanOrEqual(80);
    expect(descriptions[0]!.trim().length).toBeGreaterThanOrEqual(40);
    // ARGS differs between rows, so it stays; --wide has PATH and the whole description on one row.
    expect(text.split("\n")[0]).toMatch(/ARGS/);
    const wide = formatList(skills, "/r", { tokens: false, wide: true, columns: 80 });
    expect(wide).toContain(long);
    expect(wide).toContain(".claude/skills/s0/SKILL.md");
  });

  it("keeps the header and every row within 80 columns when names are 36+ characters and every column differs", () => {
    const names = [
      "a-skill-name-of-thirty-six-characters",
      "review-the-pull-request-with-every-check-a-team-asks-for",
      "x".repeat(90),
      "short",
    ];
    const skills = names.map((name, i) => ({
      name,
      scope: (i % 2 === 0 ? "project" : "user") as "project" | "user",
      origin: i === 1 ? "plugin-x" : null,
      path: `/r/.claude/skills/s${i}/SKILL.md`,
      trigger: (i % 2 === 0 ? "on-demand" : "keyword") as "on-demand" | "keyword",
      description: "Does the thing the name says, in as many words as it takes to say it.",
      invocation: { model: i !== 1, user: i === 2 ? null : `/s${i}` },
      argumentHint: i === 0 ? "[pr-number]" : null,
      tokens: 1234 * (i + 1),
    }));
    const text = formatList(skills, "/r", { tokens: true, wide: false, columns: 80 });
    const lines = text.split("\n");
    within(text, 80);
    // Scope and arguments would leave the names 21 columns: they move under the rows, and three names in
    // four fit beside their trigger, who may invoke and tokens (right-aligned).
    expect(lines[0]).toMatch(/^NAME +TRIGGER +INVOKE +TOKENS$/);
    expect(lines[1]).toMatch(/^a-skill-name-of-thirty-six-characters +on-demand +model\+user +1234$/);
    expect(lines.slice(2, 4)).toEqual(["    scope project", "    args [pr-number]"]);
    // A name that does not fit beside the other columns has a line of its own, whole when it fits in 80;
    // its columns follow on the next line, under their titles.
    const at = lines.indexOf(names[1]!);
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^ +keyword +user +2468$/);
    expect(lines[at + 1]!.indexOf("keyword")).toBe(lines[0]!.indexOf("TRIGGER"));
    expect(lines[at + 1]!.length).toBe(lines[0]!.length);
    expect(lines[at + 2]).toBe("    scope user:plugin-x");
    // Longer than the line: cut with an ellipsis (--wide and --json have it whole).
    expect(lines).toContain(`${"x".repeat(79)}…`);
    expect(lines.some((l) => /^short +keyword +model\+user +4936$/.test(l))).toBe(true);
    // --wide keeps every name whole.
    const wide = formatList(skills, "/r", { tokens: true, wide: true, columns: 80 });
    for (const name of names) expect(wide).toContain(name);
  });

  it("keeps name, trigger and who may invoke on one line when the other columns alone are wider than 80", () => {
    const names = ["deploy-staging", "review-pull-request", "lint-and-fix", "release-notes-writer", "db-migrate"];
    const skills: ListedSkill[] = names.map((name, i) => ({
      name,
      scope: "remote",
      origin: `skills-source-${i}.platform-team.example.com`,
      path: null,
      trigger: i % 2 === 0 ? "on-demand" : "keyword",
      description: "Deploys, reviews, fixes or writes the thing it is named after, with the team's checklist.",
      invocation: { model: true, user: i === 4 ? null : `/${name}` },
      argumentHint: `[target-${i}] [--force] [--dry-run]`,
      tokens: 1000 + 250 * i,
    }));
    const text = formatList(skills, "/r", { tokens: true, wide: false, columns: 80 });
    const lines = text.split("\n");
    within(text, 80);
    expect(lines[0]).toMatch(/^NAME +TRIGGER +INVOKE +TOKENS$/);
    skills.forEach((s, i) => {
      // One row per skill, its name whole beside its trigger and who may invoke it; no name alone on a line.
      const row = lines.findIndex((l) => l.startsWith(`${s.name} `));
      expect(lines[row]).toMatch(new RegExp(`^${s.name} +${s.trigger} +(model\\+user|model) +${s.tokens}$`));
      // The moved columns, whole, on the line under it; then at least 40 characters of the description.
      expect(lines[row + 1]).toBe(`    scope remote:skills-source-${i}.platform-team.example.com`);
      expect(lines[row + 2]).toBe(`    args [target-${i}] [--force] [--dry-run]`); // 32 characters: whole here
      expect(lines[row + 3]!.trim().length).toBeGreaterThanOrEqual(40);
    });
    expect(lines.filter((l) => names.includes(l.trim()))).toEqual([]);
    // Narrower still: the same rows, every line within the width.
    within(formatList(skills, "/r", { tokens: true, wide: false, columns: 50 }), 50);
  });

  it("keeps the columns on the row when the names have room beside them", () => {
    const skills: ListedSkill[] = ["a", "b"].map((name, i) => ({
      name: `${name}-skill`,
      scope: i === 0 ? "project" : "user",
      origin: null,
      path: null,
      trigger: "on-demand",
      description: "Short.",
      invocation: { model: true, user: `/${name}` },
      argumentHint: i === 0 ? "[file]" : null,
    }));
    const lines = formatList(skills, "/r", { tokens: false, wide: false, columns: 80 }).split("\n");
    expect(lines[0]).toMatch(/^NAME +SCOPE +ARGS$/);
    expect(lines[1]).toMatch(/^a-skill +project +\[file\]$/);
    expect(lines[2]).toBe("    Short.");
  });
});
