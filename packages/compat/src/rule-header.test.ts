import { describe, expect, test } from "vitest";
import { readRuleHeader } from "./rule-header.js";
import { ruleTrigger } from "./rule-trigger.js";

const cursor = (text: string) => readRuleHeader(text, { path: "r.mdc", format: "cursor-mdc" });
const copilot = (text: string) => readRuleHeader(text, { path: "r.instructions.md", format: "copilot-instructions" });

describe("readRuleHeader (Cursor .mdc)", () => {
  test("reads description, globs and alwaysApply", () => {
    const header = cursor("---\ndescription: Style rules\nglobs: src/**/*.ts\nalwaysApply: true\n---\nBody\n");
    expect(header).toMatchObject({
      description: "Style rules",
      globs: ["src/**/*.ts"],
      alwaysApply: true,
      body: "Body\n",
      broken: false,
    });
    expect(header.diagnostics).toEqual([]);
  });

  test("Cursor's unquoted comma lists, which are not YAML, are read as Cursor reads them", () => {
    const header = cursor("---\ndescription:\nglobs: **/*.ts, src/**/*.tsx\nalwaysApply: false\n---\nBody\n");
    expect(header).toMatchObject({
      description: undefined,
      globs: ["**/*.ts", "src/**/*.tsx"],
      alwaysApply: false,
      body: "Body\n",
      broken: false,
    });
    expect(header.diagnostics).toEqual([]);
  });

  test("an unquoted glob starting with * is a glob, not a YAML alias", () => {
    expect(cursor("---\nglobs: *.mdc\n---\nx\n").globs).toEqual(["*.mdc"]);
    expect(cursor("---\nglobs: *.config.{js,json} # config files\n---\nx\n").globs).toEqual(["*.config.{js,json}"]);
  });

  test("YAML lists and flow lists", () => {
    expect(cursor("---\nglobs:\n  - a/**\n  - b/**\n---\nx\n").globs).toEqual(["a/**", "b/**"]);
    expect(cursor('---\nglobs: ["a/**", b/*.md]\n---\nx\n').globs).toEqual(["a/**", "b/*.md"]);
  });

  test("broken frontmatter: the YAML error with its line, plus what happens to the rule", () => {
    const text = "---\ndescription: a\ndescription: b\n---\nThe body.\n";
    const header = cursor(text);
    expect(header.broken).toBe(true);
    expect(header.body).toBe(text);
    expect(header.diagnostics).toEqual([
      expect.objectContaining({ code: "YAML_INVALID", severity: "error", path: "r.mdc", line: 3 }),
      expect.objectContaining({ code: "RULE_FRONTMATTER_INVALID", severity: "warning", path: "r.mdc", line: 3 }),
    ]);
  });

  test("an unclosed block keeps the whole text", () => {
    const text = "---\ndescription: x\nBody\n";
    const header = cursor(text);
    expect(header).toMatchObject({ broken: true, body: text, description: undefined });
    expect(header.diagnostics.map((d) => d.code)).toEqual(["FRONTMATTER_UNCLOSED", "RULE_FRONTMATTER_INVALID"]);
  });

  test("fields of the wrong type are warnings with their line, and are ignored", () => {
    const header = cursor("---\ndescription: [a, b]\nalwaysApply: sometimes\nglobs: {a: 1}\n---\nx\n");
    expect(header).toMatchObject({ description: undefined, alwaysApply: false, globs: [], broken: false });
    expect(header.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["RULE_FIELD_INVALID", 2],
      ["RULE_FIELD_INVALID", 4],
      ["RULE_FIELD_INVALID", 3],
    ]);
  });

  test("no frontmatter at all is not an error", () => {
    expect(cursor("Just text.\n")).toMatchObject({ body: "Just text.\n", broken: false, diagnostics: [] });
  });

  test("unknown keys are kept in extra", () => {
    expect(cursor("---\ndescription: d\nowner: web-team\n---\nx\n").extra).toEqual({ owner: "web-team" });
  });
});

describe("readRuleHeader (Copilot .instructions.md)", () => {
  test("applyTo is the glob list", () => {
    expect(copilot('---\napplyTo: "**/*.py,scripts/**"\n---\nx\n')).toMatchObject({
      globs: ["**/*.py", "scripts/**"],
      alwaysApply: false,
    });
    expect(copilot("---\napplyTo: **/*.ts\n---\nx\n").globs).toEqual(["**/*.ts"]);
  });
});

describe("ruleTrigger", () => {
  const at = { type: "level", up: "" } as const;
  const trig = (
    text: string,
    place: Parameters<typeof ruleTrigger>[1]["place"] = at,
    format: "cursor-mdc" | "copilot-instructions" = "cursor-mdc",
  ) => ruleTrigger(readRuleHeader(text, { path: "r", format }), { format, place, file: "r" });

  test("the four Cursor activation modes", () => {
    expect(trig("---\nalwaysApply: true\nglobs: a/**\n---\nx")).toMatchObject({
      activation: "always",
      trigger: { type: "always" },
    });
    expect(trig("---\nglobs: a/**\ndescription: d\n---\nx")).toMatchObject({
      activation: "auto-attached",
      trigger: { type: "path", globs: ["a/**"] },
    });
    expect(trig("---\ndescription: d\n---\nx")).toMatchObject({
      activation: "agent-requested",
      trigger: { type: "on-demand" },
    });
    const manual = trig("---\nalwaysApply: false\n---\nx");
    expect(manual).toMatchObject({ activation: "manual", trigger: { type: "command", prefix: "@" } });
  });

  test("a broken header is loadable by name only, never always-on", () => {
    expect(trig("---\nalwaysApply: true\nalwaysApply: true\n---\nx")).toMatchObject({
      activation: "manual",
      trigger: { type: "command", prefix: "@" },
    });
  });

  test("Copilot applyTo: ** applies everywhere", () => {
    expect(trig('---\napplyTo: "**"\n---\nx', at, "copilot-instructions")).toMatchObject({
      activation: "always",
      trigger: { type: "always" },
    });
  });

  test("below cwd, always-on becomes a path rule for the rule's folder", () => {
    expect(trig("---\nalwaysApply: true\n---\nx", { type: "nested", down: "web" })).toMatchObject({
      activation: "always",
      trigger: { type: "path", globs: ["web/**"] },
    });
  });

  test("unusable globs are warnings; with none left the rule falls back to its description", () => {
    const result = trig("---\nglobs: ../x/**, !y\ndescription: d\n---\nx");
    expect(result).toMatchObject({ activation: "agent-requested" });
    expect(result.diagnostics.map((d) => d.code)).toEqual(["RULE_GLOB_UNSUPPORTED", "RULE_GLOB_UNSUPPORTED"]);
  });

  test("a rule above cwd whose globs all lie outside cwd is not loaded, with a warning", () => {
    const result = trig("---\nglobs: docs/**\n---\nx", { type: "level", up: "packages/api" });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["RULE_OUT_OF_SCOPE"]);
  });
});
