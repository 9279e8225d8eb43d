/**
 * `validateSkill` with the dialects of Claude Code, OpenHands and Codex: without `strict` every field
 * they define is accepted with an informational note naming the dialect (wrong types and misspellings
 * still fail); with `strict` the reference validator's verdicts stand unchanged.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateSkill } from "@skillctx/core";
import { CODEX_YAML_FIELDS, SKILL_MD_DIALECT_FIELDS } from "../packages/core/src/dialect-fields.js";
import type { Diagnostic } from "@skillctx/core";
import type { FieldShape } from "../packages/core/src/dialect-fields.js";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { compareCodePoints } from "../packages/core/src/code-point-order.js";

const tempDir = useTempDirs("dialects");

// A value of the right shape for each field, block style (flow lists are a portability finding of their own).
const GOOD: Record<string, string> = {
  when_to_use: "When the user asks for it.",
  "argument-hint": "\n  - file",
  arguments: "source target",
  "disable-model-invocation": "true",
  "user-invocable": "false",
  model: "haiku",
  effort: "low",
  context: "fork",
  agent: "Explore",
  paths: "src/**",
  hooks: "\n  Stop:\n    - command: echo done",
  shell: "bash",
  "disallowed-tools": "Write",
  triggers: "\n  - deploy",
  trigger: "\n  type: keyword\n  keywords:\n    - deploy",
  inputs: "\n  - name: env",
  mcp_tools: "\n  mcpServers:\n    fs:\n      command: npx",
  type: "knowledge",
  version: "1.0",
  allowed_tools: "Read",
  resources: "\n  - references/a.md",
};

// A value of the wrong shape, per shape.
const BAD: Record<FieldShape, string | undefined> = {
  string: "\n  nested: value",
  boolean: "maybe",
  "string-or-list": "\n  nested: value",
  mapping: "just text",
  list: "just text",
  any: undefined,
};

async function skillWith(lines: string, yaml?: string): Promise<string> {
  const root = await tempDir();
  const dir = path.join(root, "my-skill");
  await put(
    dir,
    "SKILL.md",
    `---\nname: my-skill\ndescription: A skill that checks dialect fields in tests.\n${lines}\n---\nBody.\n`,
  );
  if (yaml !== undefined) await put(dir, "agents/openai.yaml", yaml);
  return dir;
}

const errors = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.severity === "error").map((d) => d.code);

describe("validateSkill: SKILL.md dialect fields", () => {
  it("knows a good value for every dialect field it lists", () => {
    expect(Object.keys(GOOD).sort(compareCodePoints)).toEqual(
      SKILL_MD_DIALECT_FIELDS.map((f) => f.name).sort(compareCodePoints),
    );
  });

  it.each(SKILL_MD_DIALECT_FIELDS.map((f) => [f.name, f.dialect] as const))(
    "%s (%s): accepted with a note; strict keeps UNEXPECTED_FIELDS",
    async (name, dialect) => {
      const dir = await skillWith(`${name}: ${GOOD[name]}`);
      const lenient = await validateSkill(dir);
      expect(errors(lenient.diagnostics)).toEqual([]);
      expect(lenient.valid).toBe(true);
      const note = lenient.diagnostics.find((d) => d.code === "DIALECT_FIELD");
      expect(note).toMatchObject({ severity: "info", dialect, line: 4, path: path.join(dir, "SKILL.md") });
      expect(note?.message).toContain(`'${name}'`);

      const strict = await validateSkill(dir, { strict: true });
      expect(strict.valid).toBe(false);
      expect(errors(strict.diagnostics)).toEqual(["UNEXPECTED_FIELDS"]);
      expect(strict.diagnostics.find((d) => d.code === "UNEXPECTED_FIELDS")?.message).toContain(
        `Unexpected fields in frontmatter: ${name}.`,
      );
      // Strict results still name the dialect, as a note that changes no verdict.
      expect(strict.diagnostics.find((d) => d.code === "DIALECT_FIELD")).toMatchObject({ severity: "info", dialect });
    },
  );

  const typed = SKILL_MD_DIALECT_FIELDS.filter((f) => BAD[f.shape] !== undefined);
  it.each(typed.map((f) => [f.name, f.shape] as const))(
    "%s with a value that is not %s: FIELD_TYPE_INVALID",
    async (name, shape) => {
      const dir = await skillWith(`${name}: ${BAD[shape]}`);
      const lenient = await validateSkill(dir);
      expect(lenient.valid).toBe(false);
      expect(errors(lenient.diagnostics)).toEqual(["FIELD_TYPE_INVALID"]);
      expect(lenient.diagnostics.find((d) => d.code === "FIELD_TYPE_INVALID")).toMatchObject({
        line: 4,
        dialect: expect.any(String),
      });
    },
  );

  it("reports misspellings with a suggestion, and unknown fields as the reference does", async () => {
    const dir = await skillWith(
      "disable-model-invokation: true\nuser_invocable: false\nwhen-to-use: later\nauthor: me",
    );
    const lenient = await validateSkill(dir);
    expect(lenient.valid).toBe(false);
    const found = lenient.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.line, d.message]);
    expect(found).toEqual([
      ["FIELD_MISSPELLED", 4, "Unknown field 'disable-model-invokation': did you mean 'disable-model-invocation'?"],
      ["FIELD_MISSPELLED", 5, "Unknown field 'user_invocable': did you mean 'user-invocable'?"],
      ["FIELD_MISSPELLED", 6, "Unknown field 'when-to-use': did you mean 'when_to_use'?"],
    ]);
    // A field no dialect knows (`author`) is kept by list as metadata: a warning unless --strict.
    expect(lenient.diagnostics.find((d) => d.code === "UNEXPECTED_FIELDS")).toMatchObject({
      severity: "warning",
      line: 7,
      message: expect.stringContaining("Unexpected fields in frontmatter: author."),
    });
  });

  it("warns about a context Claude Code does not know, without failing", async () => {
    const lenient = await validateSkill(await skillWith("context: sandbox"));
    expect(lenient.valid).toBe(true);
    expect(lenient.diagnostics.find((d) => d.code === "FIELD_VALUE_UNKNOWN")).toMatchObject({
      severity: "warning",
      dialect: "claude-code",
    });
  });

  it("keeps a plain spec skill free of notes in both modes", async () => {
    const dir = await skillWith("license: MIT");
    expect(await validateSkill(dir)).toEqual({ valid: true, diagnostics: [] });
    expect(await validateSkill(dir, { strict: true })).toEqual({ valid: true, diagnostics: [] });
  });
});

describe("validateSkill: Codex agents/openai.yaml", () => {
  const YAML = [
    "interface:",
    '  display_name: "My Skill"',
    '  short_description: "Does things"',
    '  icon_small: "./assets/small.png"',
    '  icon_large: "./assets/large.svg"',
    '  brand_color: "#3B82F6"',
    '  default_prompt: "Use $my-skill to do things."',
    "policy:",
    "  allow_implicit_invocation: false",
    "dependencies:",
    "  tools:",
    '    - type: "mcp"',
    '      value: "github"',
    '      url: "https://example.com/mcp"',
    "",
  ].join("\n");

  it("notes every Codex field with its dialect, in both modes, and fails nothing", async () => {
    const dir = await skillWith("license: MIT", YAML);
    for (const strict of [false, true]) {
      const result = await validateSkill(dir, { strict });
      expect(result.valid).toBe(true);
      const notes = result.diagnostics.filter((d) => d.code === "DIALECT_FIELD");
      expect(notes.map((d) => d.message.split("'")[1]).sort((a, b) => compareCodePoints(String(a), String(b)))).toEqual(
        CODEX_YAML_FIELDS.map((f) => f.name).sort(compareCodePoints),
      );
      for (const note of notes)
        expect(note).toMatchObject({ severity: "info", dialect: "codex", path: path.join(dir, "agents/openai.yaml") });
      expect(notes.find((d) => d.message.includes("policy.allow_implicit_invocation"))?.line).toBe(9);
    }
  });

  it("fails wrong types without strict, warns about unknown keys, and strict ignores both", async () => {
    const yaml =
      'interface:\n  display_name:\n    - a\n  colour: red\npolicy:\n  allow_implicit_invocation: "no"\ndependencies:\n  tools: none\n';
    const dir = await skillWith("license: MIT", yaml);
    const lenient = await validateSkill(dir);
    expect(lenient.valid).toBe(false);
    const found = lenient.diagnostics.filter((d) => d.severity !== "info").map((d) => [d.code, d.line]);
    expect(found).toEqual([
      ["FIELD_TYPE_INVALID", 2],
      ["CODEX_FIELD_UNKNOWN", 4],
      ["FIELD_TYPE_INVALID", 6],
      ["FIELD_TYPE_INVALID", 8],
    ]);
    const strict = await validateSkill(dir, { strict: true });
    expect(strict.valid).toBe(true);
    expect(strict.diagnostics.every((d) => d.severity === "info")).toBe(true);
  });

  it("reports broken YAML without strict, and nothing under strict", async () => {
    const dir = await skillWith("license: MIT", "interface: [unclosed\n");
    const lenient = await validateSkill(dir);
    expect(lenient.valid).toBe(true);
    expect(lenient.diagnostics.map((d) => [d.code, d.severity, d.dialect])).toEqual([
      ["YAML_INVALID", "warning", "codex"],
    ]);
    expect(await validateSkill(dir, { strict: true })).toEqual({ valid: true, diagnostics: [] });
  });
});
