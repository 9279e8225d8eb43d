import { rmSync, utimesSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCatalog, catalogDescription } from "./catalog.js";
import { parseCodexSkillYaml, withCodexMetadata } from "./codex-skill-metadata.js";
import { suggestField } from "./dialect-fields.js";
import { loadSkills } from "./load-skills.js";
import { parseSkill, safeParseSkill } from "./parse-skill.js";
import { SkillSchema } from "./schemas.js";
import { createSkillCache } from "./skill-cache.js";
import { put, useTempDirs } from "./testing/temp-dir.js";

const tempDir = useTempDirs("dialects");
const codes = (r: ReturnType<typeof safeParseSkill>) => (r.ok ? r.diagnostics.map((d) => d.code) : [r.error.code]);

describe("parseSkill: Claude Code fields", () => {
  const text = [
    "---",
    "name: review",
    "description: Reviews a change.",
    "when_to_use: When a pull request is ready.",
    "argument-hint: [pr-number]",
    "arguments: pr priority",
    "user-invocable: false",
    "disable-model-invocation: true",
    "model: sonnet",
    "effort: high",
    "context: fork",
    "agent: Explore",
    "shell: bash",
    "disallowed-tools: Write",
    "hooks:",
    "  Stop:",
    "    - command: echo done",
    "---",
    "Review $pr.",
  ].join("\n");

  it("reads them into the Skill, hooks and the others it does not act on kept in extra, without a warning", () => {
    const result = safeParseSkill(text, { path: "/s/review/SKILL.md" });
    expect(codes(result)).toEqual([]);
    if (!result.ok) return;
    expect(SkillSchema.parse(result.skill)).toEqual(result.skill);
    expect(result.skill).toMatchObject({
      whenToUse: "When a pull request is ready.",
      argumentHint: "[pr-number]",
      argumentNames: ["pr", "priority"],
      userInvocable: false,
      disableModelInvocation: true,
      model: "sonnet",
      effort: "high",
      context: "fork",
      agent: "Explore",
      extra: { shell: "bash", "disallowed-tools": "Write", hooks: { Stop: [{ command: "echo done" }] } },
    });
  });

  it("warns about a value of the wrong type and keeps it in extra", () => {
    const result = safeParseSkill(
      "---\nname: a\ndescription: d\nuser-invocable: sometimes\nmodel:\n  id: x\narguments:\n  k: v\n---\n",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["FIELD_INVALID", 4],
      ["FIELD_INVALID", 7],
      ["FIELD_NOT_STRING", 5],
    ]);
    expect(result.skill.userInvocable).toBeUndefined();
    expect(result.skill.model).toBeUndefined();
    expect(result.skill.extra).toEqual({ "user-invocable": "sometimes", model: { id: "x" }, arguments: { k: "v" } });
  });

  it("takes arguments as a YAML list, and argument-hint as written", () => {
    const skill = parseSkill(
      "---\nname: a\ndescription: d\narguments:\n  - from\n  - to\nargument-hint: <from> <to>\n---\n",
    );
    expect(skill.argumentNames).toEqual(["from", "to"]);
    expect(skill.argumentHint).toBe("<from> <to>");
  });

  it("keeps OpenHands' agent (a legacy file's) in extra, and reads Claude Code's in a SKILL.md", () => {
    const legacy = parseSkill("---\nagent: CodeActAgent\ntriggers: [x]\n---\nbody", {
      path: "/r/.openhands/microagents/x.md",
      format: "legacy",
    });
    expect(legacy.agent).toBeUndefined();
    expect(legacy.extra).toEqual({ agent: "CodeActAgent" });
    expect(parseSkill("---\nname: a\ndescription: d\nagent: Plan\n---\n").agent).toBe("Plan");
  });

  it("paths: makes a SKILL.md path-activated", () => {
    expect(parseSkill("---\nname: a\ndescription: d\npaths:\n  - src/**/*.ts\n---\n").trigger).toEqual({
      type: "path",
      globs: ["src/**/*.ts"],
    });
  });

  it("names a likely misspelling in the UNKNOWN_FIELDS warning", () => {
    const result = safeParseSkill("---\nname: a\ndescription: d\ndisable-model-invokation: true\n---\n");
    expect(result.ok && result.diagnostics.map((d) => d.message)).toEqual([
      "fields skillctx does not use, kept in extra: disable-model-invokation (did you mean disable-model-invocation?)",
    ]);
    expect(result.ok && result.skill.disableModelInvocation).toBeUndefined();
  });

  it("keeps a caller's vendor fields in extra without a warning", () => {
    const result = safeParseSkill("---\ndescription: d\ntools: [a]\nmode: ask\nother: 1\n---\n", {
      path: "/p/x.prompt.md",
      format: "skill-md",
      vendorFields: ["tools", "mode"],
    });
    expect(result.ok && result.skill.extra).toEqual({ tools: ["a"], mode: "ask", other: "1" });
    expect(result.ok && result.diagnostics.find((d) => d.code === "UNKNOWN_FIELDS")?.message).toBe(
      "fields skillctx does not use, kept in extra: other",
    );
  });
});

describe("suggestField", () => {
  it("finds near misses of known fields, and nothing for far ones", () => {
    expect(suggestField("disable_model_invocation")).toBe("disable-model-invocation");
    expect(suggestField("user-invokable")).toBe("user-invocable");
    expect(suggestField("alowed-tools")).toBe("allowed-tools");
    expect(suggestField("descripiton")).toBe("description");
    expect(suggestField("modle")).toBe("model");
    expect(suggestField("author")).toBeUndefined();
    expect(suggestField("x".repeat(10_000))).toBeUndefined();
    expect(suggestField("model")).toBeUndefined();
  });
});

describe("catalog: when_to_use", () => {
  it("is appended to the description, as Claude Code lists it", () => {
    expect(catalogDescription({ description: "Reviews code.", whenToUse: "When a PR is open." })).toBe(
      "Reviews code. When a PR is open.",
    );
    expect(catalogDescription({ description: "Reviews code", whenToUse: "when a PR is open" })).toBe(
      "Reviews code - when a PR is open",
    );
    expect(catalogDescription({ whenToUse: "Only this." })).toBe("Only this.");
    const skill = parseSkill("---\nname: r\ndescription: Reviews code.\nwhen_to_use: When a PR is open.\n---\n");
    expect(buildCatalog([skill]).text).toContain("<description>Reviews code. When a PR is open.</description>");
  });

  it("leaves out disable-model-invocation and command skills, keeps user-invocable: false", () => {
    const listed = parseSkill("---\nname: a\ndescription: d\nuser-invocable: false\n---\n");
    const userOnly = parseSkill("---\nname: b\ndescription: d\ndisable-model-invocation: true\n---\n");
    const command = {
      ...parseSkill("---\nname: c\ndescription: d\n---\n"),
      trigger: { type: "command" as const, prefix: "/" as const },
    };
    expect(buildCatalog([listed, userOnly, command]).included).toEqual(["a"]);
  });
});

describe("Codex agents/openai.yaml", () => {
  it("collapses runs of whitespace in short_description, as Codex's sanitize_single_line does", () => {
    // openai/codex codex-rs skills loader `sanitize_single_line` (test `loads_valid_skill`).
    const codex = parseCodexSkillYaml('interface:\n  short_description: "Search   the\\n\\tdocs  "\n');
    expect(codex.shortDescription).toBe("Search the docs");
  });

  it("reads the interface, the policy and mcp dependencies (url → HTTP, command → stdio)", () => {
    const codex = parseCodexSkillYaml(
      [
        "interface:",
        '  display_name: "Docs"',
        '  short_description: "Search the docs"',
        "policy:",
        "  allow_implicit_invocation: false",
        "dependencies:",
        "  tools:",
        '    - { type: "mcp", value: "github", transport: "streamable_http", url: "https://api.example.com/mcp/" }',
        '    - { type: "mcp", value: "local", command: "node", args: ["server.mjs"] }',
        '    - { type: "cli", value: "gh" }',
        '    - { type: "mcp", value: "broken" }',
      ].join("\n"),
      { path: "/s/docs/agents/openai.yaml" },
    );
    expect(codex).toMatchObject({
      displayName: "Docs",
      shortDescription: "Search the docs",
      allowImplicitInvocation: false,
      mcpServers: {
        github: { transport: "streamable_http", url: "https://api.example.com/mcp/" },
        local: { command: "node", args: ["server.mjs"] },
      },
    });
    expect(codex.diagnostics.map((d) => [d.code, d.line])).toEqual([["CODEX_FIELD_INVALID", 7]]);
    const skill = withCodexMetadata(
      parseSkill("---\nname: docs\ndescription: d\nmetadata:\n  display_name: Mine\n---\n"),
      codex,
    );
    expect(skill).toMatchObject({
      disableModelInvocation: true,
      metadata: { display_name: "Mine", short_description: "Search the docs" },
    });
    expect(Object.keys(skill.mcpServers ?? {})).toEqual(["github", "local"]);
  });

  it("tolerates what it cannot read: broken YAML, a list, wrong types", () => {
    expect(parseCodexSkillYaml("interface: [").diagnostics.map((d) => d.code)).toEqual(["YAML_INVALID"]);
    expect(parseCodexSkillYaml("- a\n- b\n").diagnostics.map((d) => d.code)).toEqual(["CODEX_FIELD_INVALID"]);
    const wrong = parseCodexSkillYaml("interface: text\npolicy:\n  allow_implicit_invocation: maybe\n");
    expect(wrong.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["CODEX_FIELD_INVALID", 1],
      ["CODEX_FIELD_INVALID", 3],
    ]);
    expect(wrong.allowImplicitInvocation).toBeUndefined();
  });

  it("is read by a scan beside a SKILL.md, and read again when it changes", async () => {
    const root = await tempDir();
    const dir = path.join(root, "skills", "docs");
    await put(dir, "SKILL.md", "---\nname: docs\ndescription: Search the docs.\n---\nBody\n");
    const cache = createSkillCache();
    const scan = async () => (await loadSkills([path.join(root, "skills")], { cache })).skills[0]!;
    expect((await scan()).disableModelInvocation).toBeUndefined();
    const yaml = await put(dir, "agents/openai.yaml", "policy:\n  allow_implicit_invocation: false\n");
    expect((await scan()).disableModelInvocation).toBe(true);
    await put(dir, "agents/openai.yaml", "policy:\n  allow_implicit_invocation: true \n");
    utimesSync(yaml, new Date(), new Date(Date.now() + 5_000));
    const again = await scan();
    expect(again.disableModelInvocation).toBeUndefined();
    expect(again.extra).toEqual({ "agents/openai.yaml": { policy: { allow_implicit_invocation: true } } });
    // Deleted: the skill is as its SKILL.md says; written again: read again.
    rmSync(yaml);
    const without = await scan();
    expect(without.extra).toBeUndefined();
    expect(without.disableModelInvocation).toBeUndefined();
    await put(dir, "agents/openai.yaml", "policy:\n  allow_implicit_invocation: false\n");
    expect((await scan()).disableModelInvocation).toBe(true);
  });
});
