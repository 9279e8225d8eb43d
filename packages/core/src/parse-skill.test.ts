import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillctxError } from "./errors.js";
import { parseSkill, safeParseSkill } from "./parse-skill.js";

const codes = (r: ReturnType<typeof safeParseSkill>) => (r.ok ? r.diagnostics.map((d) => d.code) : [r.error.code]);

describe("parseSkill: SKILL.md", () => {
  const text = [
    "---",
    "name: pdf-tools",
    "description: Read and fill PDF forms.",
    "license: MIT",
    "compatibility: Python 3.11",
    "metadata:",
    "  author: someone",
    '  version: "1.0"',
    "allowed-tools: Read Bash(git add:*), Write",
    "---",
    "# PDF",
    "",
    "Body.",
  ].join("\n");

  it("reads the specification fields", () => {
    const skill = parseSkill(text, { path: "/skills/pdf-tools/SKILL.md", scope: "project" });
    expect(skill).toMatchObject({
      name: "pdf-tools",
      description: "Read and fill PDF forms.",
      license: "MIT",
      compatibility: "Python 3.11",
      metadata: { author: "someone", version: "1.0" },
      allowedTools: ["Read", "Bash(git add:*)", "Write"],
      trigger: { type: "on-demand" },
      dir: "/skills/pdf-tools",
      content: "# PDF\n\nBody.",
      source: { kind: "file", path: "/skills/pdf-tools/SKILL.md", format: "skill-md", scope: "project" },
    });
    expect(skill.extra).toBeUndefined();
  });

  it("takes allowed-tools as a YAML list", () => {
    const skill = parseSkill("---\nname: a\ndescription: d\nallowed-tools:\n  - Read\n  - Grep\n---\n");
    expect(skill.allowedTools).toEqual(["Read", "Grep"]);
  });

  it("defaults to an inline, programmatic skill-md without a path", () => {
    const skill = parseSkill("---\nname: a\ndescription: d\n---\n");
    expect(skill.source).toEqual({ kind: "inline", format: "skill-md", scope: "programmatic" });
    expect(skill.dir).toBeUndefined();
    expect(skill.metadata).toEqual({});
  });

  it("reads scalars as written", () => {
    const skill = parseSkill("---\nname: 123\ndescription: true\n---\n");
    expect(skill.name).toBe("123");
    expect(skill.description).toBe("true");
  });

  it("keyword and task triggers, paths, disable-model-invocation, resources and mcp_tools", () => {
    const keyword = parseSkill("---\nname: k8s\ndescription: d\ntriggers:\n  - kubernetes\n  - k8s\n---\n");
    expect(keyword.trigger).toEqual({ type: "keyword", keywords: ["kubernetes", "k8s"] });
    const task = parseSkill(
      "---\nname: fix\ndescription: d\ntriggers: [fix bug]\ninputs:\n  - name: issue\n    description: The issue\n    required: true\n---\n",
    );
    expect(task.trigger).toEqual({
      type: "task",
      keywords: ["fix bug", "/fix"],
      inputs: [{ name: "issue", description: "The issue", required: true }],
    });
    expect(task.inputs).toEqual([{ name: "issue", description: "The issue", required: true }]);
    const paths = parseSkill("---\nname: p\ndescription: d\npaths: src/**/*.ts, test/**\n---\n");
    expect(paths.trigger).toEqual({ type: "path", globs: ["src/**/*.ts", "test/**"] });
    const more = parseSkill(
      [
        "---",
        "name: m",
        "description: d",
        "disable-model-invocation: true",
        "resources:",
        "  - references/a.md",
        "mcp_tools:",
        "  mcpServers:",
        "    fs:",
        "      command: npx",
        "      args: [-y, server]",
        "      timeout: 30",
        "---",
      ].join("\n"),
    );
    expect(more.disableModelInvocation).toBe(true);
    expect(more.resources).toEqual(["references/a.md"]);
    // MCP config keeps its YAML types.
    expect(more.mcpServers).toEqual({ fs: { command: "npx", args: ["-y", "server"], timeout: 30 } });
  });

  it("accepts the OpenHands trigger shape", () => {
    const keyword = parseSkill("---\nname: k\ntrigger:\n  type: keyword\n  keywords: [a, b]\n---\nbody");
    expect(keyword.trigger).toEqual({ type: "keyword", keywords: ["a", "b"] });
    const task = parseSkill("---\nname: t\ntrigger:\n  type: task\n  keywords: [go]\ninputs:\n  - name: x\n---\nbody");
    expect(task.trigger).toEqual({ type: "task", keywords: ["go", "/t"], inputs: [{ name: "x", description: "" }] });
  });

  it("converts non-string metadata values with a warning and keeps unknown fields in extra", () => {
    const result = safeParseSkill(
      "---\nname: a\ndescription: d\nmetadata:\n  tags: [x, y]\n  nested:\n    k: v\ntype: knowledge\nauthor: me\nlevel: 2\n---\n",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.skill.metadata).toEqual({ tags: '["x","y"]', nested: '{"k":"v"}' });
    // `type` is an OpenHands field kept quietly; the others are unknown.
    expect(result.skill.extra).toEqual({ type: "knowledge", author: "me", level: "2" });
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["METADATA_NOT_STRING", 4],
      ["UNKNOWN_FIELDS", 9],
    ]);
    expect(result.diagnostics[1]!.message).toContain("author, level");
  });

  it("derives a missing name from the folder, with a warning", () => {
    const result = safeParseSkill("---\ndescription: d\n---\n", { path: path.join("skills", "my-skill", "SKILL.md") });
    expect(result.ok && result.skill.name).toBe("my-skill");
    expect(codes(result)).toEqual(["NAME_MISSING"]);
  });

  it("lets the first body line stand in for a missing description", () => {
    const result = safeParseSkill("---\nname: a\n---\n# Heading\n\n---\nFirst real line.\nSecond.\n");
    expect(result.ok && result.skill.description).toBe("First real line.");
    expect(codes(result)).toEqual(["DESCRIPTION_MISSING"]);
  });

  it("fails only when no name can be had", () => {
    const result = safeParseSkill("---\ndescription: d\n---\n");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(SkillctxError);
    expect(result.error.code).toBe("NAME_MISSING");
    expect(() => parseSkill("no frontmatter at all")).toThrow(SkillctxError);
  });

  it("names the YAML error when broken YAML hid the name", () => {
    const result = safeParseSkill("---\nname: a\n- b\n---\n");
    expect(!result.ok && result.error.code).toBe("YAML_INVALID");
  });

  it("still loads a SKILL.md with broken YAML, keeping the whole text", () => {
    const text = "---\nname: a\n- b\n---\nbody";
    const result = safeParseSkill(text, { path: "/x/broken/SKILL.md" });
    expect(result.ok && result.skill.name).toBe("broken");
    expect(result.ok && result.skill.content).toBe(text);
    expect(codes(result)).toContain("YAML_INVALID");
    // The stand-in description comes from the body, not from the unreadable block.
    expect(result.ok && result.skill.description).toBe("body");
  });

  it("gives a head-only text the same metadata as the whole file, with empty content", () => {
    const head = "---\nname: a\ndescription: d\ntriggers:\n  - go\nmetadata:\n  k: v\n---";
    const whole = safeParseSkill(`${head}\n# Body\ntext\n`, { path: "/s/a/SKILL.md" });
    const headOnly = safeParseSkill(head, { path: "/s/a/SKILL.md" });
    expect(whole.ok && headOnly.ok).toBe(true);
    if (!whole.ok || !headOnly.ok) return;
    expect(headOnly.skill.content).toBe("");
    expect({ ...headOnly.skill, content: "" }).toEqual({ ...whole.skill, content: "" });
    expect(headOnly.diagnostics).toEqual(whole.diagnostics);
  });

  it("uses the colon retry and reports it", () => {
    const result = safeParseSkill("---\nname: a\ndescription: Use when: x\n---\n");
    expect(result.ok && result.skill.description).toBe("Use when: x");
    expect(codes(result)).toEqual(["YAML_UNQUOTED_COLON"]);
  });
});

describe("parseSkill: legacy .md", () => {
  const root = path.join("/repo", ".openhands", "microagents");

  it("has no trigger → always, name from the relative path without extension", () => {
    const skill = parseSkill("Always follow the style guide.\n", { path: path.join(root, "a", "b", "c.md"), root });
    expect(skill.name).toBe("a/b/c");
    expect(skill.trigger).toEqual({ type: "always" });
    expect(skill.source.format).toBe("legacy");
    expect(skill.content).toBe("Always follow the style guide.\n");
    expect(skill.dir).toBeUndefined();
  });

  it("triggers → keyword", () => {
    const skill = parseSkill("---\nname: git\ntriggers:\n- git\n- github\n---\nbody", {
      path: path.join(root, "git.md"),
      root,
    });
    expect(skill.trigger).toEqual({ type: "keyword", keywords: ["git", "github"] });
  });

  it("an empty inputs key → task with /name", () => {
    const skill = parseSkill("---\ninputs:\n---\nDo it.", { path: path.join(root, "deploy.md"), root });
    expect(skill.name).toBe("deploy");
    expect(skill.trigger).toEqual({ type: "task", keywords: ["/deploy"], inputs: [] });
  });

  it("paths as a list or a comma-separated string → path", () => {
    const list = parseSkill("---\nname: r\npaths:\n  - src/**\n---\nx", { path: "r.md" });
    expect(list.trigger).toEqual({ type: "path", globs: ["src/**"] });
    const csv = parseSkill("---\nname: r\npaths: 'src/**, docs/*.md'\n---\nx", { path: "r.md" });
    expect(csv.trigger).toEqual({ type: "path", globs: ["src/**", "docs/*.md"] });
  });

  it("keeps OpenHands type/version/agent quietly in extra", () => {
    const result = safeParseSkill("---\nname: r\ntype: repo\nversion: 1.0.0\nagent: CodeActAgent\n---\nx", {
      path: "r.md",
    });
    expect(result.ok && result.skill.extra).toEqual({ type: "repo", version: "1.0.0", agent: "CodeActAgent" });
    expect(codes(result)).toEqual([]);
  });

  it("takes a legacy skill's name from its path and its description from the body, without warnings", () => {
    const result = safeParseSkill("---\ntriggers: [k8s]\n---\n# Kubernetes\nUse kubectl.\n", {
      path: "/r/skills/ops/k8s.md",
      root: "/r/skills",
    });
    expect(result.ok && result.skill.name).toBe("ops/k8s");
    expect(result.ok && result.skill.description).toBe("Use kubectl.");
    expect(codes(result)).toEqual([]);
  });

  it("paths win over triggers, with a warning on the triggers line (as in OpenHands)", () => {
    const result = safeParseSkill("---\nname: r\ndescription: d\ntriggers: [a]\npaths: [b]\n---\nx", { path: "r.md" });
    expect(result.ok && result.skill.trigger).toEqual({ type: "path", globs: ["b"] });
    expect(result.ok && result.diagnostics.map((d) => [d.code, d.line])).toEqual([["TRIGGER_CONFLICT", 4]]);
  });

  it("paths win over inputs too: no task, no inputs, one warning naming both", () => {
    const result = safeParseSkill("---\ntriggers: [go]\ninputs:\n  - name: x\npaths: src/**\n---\nx", {
      path: "/r/deploy.md",
      root: "/r",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.skill.trigger).toEqual({ type: "path", globs: ["src/**"] });
    expect(result.skill.inputs).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toEqual(["TRIGGER_CONFLICT"]);
    expect(result.diagnostics[0]!.message).toContain("'triggers' and 'inputs' ignored");
  });

  it("format can be forced", () => {
    expect(parseSkill("body", { path: "/x/SKILL.md", format: "legacy" }).trigger.type).toBe("always");
  });
});

describe("parseSkill: hostile field names", () => {
  it("does not keep a __proto__ field, and says so", () => {
    const result = safeParseSkill("---\nname: x\ndescription: d\n__proto__: {polluted: yes}\nother: kept\n---\n", {
      path: "/s/x/SKILL.md",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.hasOwn(result.skill.extra ?? {}, "__proto__")).toBe(false);
    expect(result.skill.extra).toEqual({ other: "kept" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(codes(result)).toEqual(["FIELD_INVALID", "UNKNOWN_FIELDS"]);
  });
});
