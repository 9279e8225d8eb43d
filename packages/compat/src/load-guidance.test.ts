import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { SkillctxError } from "@skillctx/core";
import { SkillSchema } from "@skillctx/core/schemas";
import type { Skill } from "@skillctx/core";
import { afterAll, describe, expect, test } from "vitest";
import { loadGuidance } from "./load-guidance.js";
import { copyFixture, put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

const byName = (skills: Skill[], name: string): Skill => {
  const skill = skills.find((s) => s.name === name);
  if (skill === undefined) throw new Error(`no skill ${name} in ${skills.map((s) => s.name).join(", ")}`);
  return skill;
};

describe("every format at the repository root (fixtures/compat/all-formats)", async () => {
  const repo = await copyFixture("all-formats");
  const { skills, diagnostics } = await loadGuidance(repo);

  test("one skill per file, named by kind, in code point order", () => {
    expect(skills.map((s) => s.name)).toEqual([
      "agents",
      "claude",
      "clinerules",
      "copilot",
      "copilot:everywhere",
      "copilot:manual",
      "copilot:python",
      "copilot:release",
      "cursor:always",
      "cursor:broken",
      "cursor:frontend/components",
      "cursor:manual",
      "cursor:migrations",
      "cursor:ts-style",
      "cursorrules",
      "gemini",
      "windsurfrules",
    ]);
  });

  test.each([
    ["agents", "AGENTS.md"],
    ["claude", "CLAUDE.md"],
    ["gemini", "GEMINI.md"],
    ["cursorrules", ".cursorrules"],
    ["windsurfrules", ".windsurfrules"],
    ["clinerules", ".clinerules"],
    ["copilot", ".github/copilot-instructions.md"],
  ])("%s is always-on, read raw from %s, byte for byte", async (name, file) => {
    const skill = byName(skills, name);
    const full = path.join(repo, file);
    expect(skill.content).toBe(await readFile(full, "utf8"));
    expect(skill.trigger).toEqual({ type: "always" });
    expect(skill.source).toEqual({ kind: "compat", path: full, format: "guidance", scope: "project" });
    expect(skill.dir).toBe(path.dirname(full));
  });

  test("AGENTS.md frontmatter is not parsed: it stays in the text", () => {
    expect(byName(skills, "agents").content.startsWith("---\ntitle: this block is not parsed")).toBe(true);
  });

  test("Copilot path rules from applyTo; a description only → catalog; none → by name only; ** → always", () => {
    expect(byName(skills, "copilot:python")).toMatchObject({
      trigger: { type: "path", globs: ["**/*.py", "scripts/**"] },
      content: "Use type hints and `ruff format`.\n",
      source: { format: "copilot-instructions" },
      dir: path.join(repo, ".github/instructions"),
    });
    expect(byName(skills, "copilot:release")).toMatchObject({
      trigger: { type: "on-demand" },
      description: "How to cut a release of the service",
    });
    expect(byName(skills, "copilot:release").disableModelInvocation).toBeUndefined();
    expect(byName(skills, "copilot:manual")).toMatchObject({ trigger: { type: "command", prefix: "@" } });
    expect(byName(skills, "copilot:everywhere").trigger).toEqual({ type: "always" });
  });

  test("Cursor rules: alwaysApply, globs, description, none; rules in sub-folders keep their path", () => {
    expect(byName(skills, "cursor:always")).toMatchObject({
      trigger: { type: "always" },
      content: "Always write JSDoc on exported functions.\n",
    });
    expect(byName(skills, "cursor:ts-style").trigger).toEqual({ type: "path", globs: ["**/*.ts", "src/**/*.tsx"] });
    expect(byName(skills, "cursor:frontend/components")).toMatchObject({
      trigger: { type: "path", globs: ["src/components/**/*.tsx"] },
      description: "React component conventions",
    });
    expect(byName(skills, "cursor:migrations")).toMatchObject({
      trigger: { type: "on-demand" },
      description: "Writing database migrations with knex",
    });
    expect(byName(skills, "cursor:manual")).toMatchObject({
      trigger: { type: "command", prefix: "@" },
      metadata: { activation: "manual" },
    });
    expect(byName(skills, "cursor:manual").description).toBeUndefined();
  });

  test("a broken .mdc is a diagnostic with file and line, and its text is still loadable by name", async () => {
    const file = path.join(repo, ".cursor/rules/broken.mdc");
    const broken = byName(skills, "cursor:broken");
    expect(broken).toMatchObject({ trigger: { type: "command", prefix: "@" }, source: { format: "cursor-mdc" } });
    expect(broken.content).toBe(await readFile(file, "utf8"));
    const found = diagnostics.filter((d) => d.path === file);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => typeof d.line === "number")).toBe(true);
    expect(found.map((d) => d.code)).toContain("RULE_FRONTMATTER_INVALID");
  });

  test("every skill is a valid Skill and names are unique", () => {
    for (const skill of skills) expect(SkillSchema.parse(skill)).toEqual(skill);
    expect(new Set(skills.map((s) => s.name)).size).toBe(skills.length);
  });
});

describe("names and precedence", () => {
  test("file names match exactly as their owners spell them; another case is passed over with a note", async () => {
    // Codex opens AGENTS.md (codex-rs project_doc.rs DEFAULT_PROJECT_DOC_FILENAME), Claude Code CLAUDE.md,
    // Cursor .cursorrules, Copilot .github/copilot-instructions.md: on a case-sensitive disk no other spelling.
    const repo = await copyFixture("case-names");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["GUIDANCE_NAME_CASE", path.join(repo, "Agents.md")],
      ["GUIDANCE_NAME_CASE", path.join(repo, "claude.md")],
      ["GUIDANCE_NAME_CASE", path.join(repo, ".CURSORRULES")],
    ]);
  });

  test("AGENTS.md beats AGENT.md, and a warning names the other", async () => {
    const repo = await copyFixture("agent-precedence");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills).toHaveLength(1);
    expect(skills[0]).toMatchObject({ name: "agents", content: "# AGENTS.md wins\n" });
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "GUIDANCE_SHADOWED", severity: "warning", path: path.join(repo, "AGENT.md") }),
    ]);
    expect(diagnostics[0]?.message).toContain("AGENT.md");
  });

  test("AGENT.md alone is read as agents", async () => {
    const repo = await copyFixture("agent-only");
    const { skills } = await loadGuidance(repo);
    expect(skills.map((s) => [s.name, s.content])).toEqual([["agents", "# only AGENT.md here\n"]]);
  });

  test("two spellings of one name (case-sensitive file systems): only the owner's is read", async () => {
    const repo = await tempDir();
    await put(repo, "AGENTS.md", "upper\n");
    await put(repo, "agents.md", "lower\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => s.content)).toEqual(["upper\n"]);
    expect(diagnostics.map((d) => [d.code, d.path])).toEqual([["GUIDANCE_NAME_CASE", path.join(repo, "agents.md")]]);
  });

  test(".clinerules as a folder: its .md files in code point order, each labelled; other files ignored", async () => {
    const repo = await copyFixture("clinerules-dir");
    const { skills } = await loadGuidance(repo);
    expect(skills.map((s) => s.name)).toEqual(["clinerules"]);
    const skill = byName(skills, "clinerules");
    const parts = ["01-style.md", "02-tests.md", "sub/03-more.md"];
    let at = -1;
    for (const part of parts) {
      const label = skill.content.indexOf(`<!-- .clinerules/${part} -->\n`);
      expect(label).toBeGreaterThan(at);
      at = label;
      expect(skill.content).toContain(await readFile(path.join(repo, ".clinerules", part), "utf8"));
    }
    expect(skill.content).not.toContain("not markdown");
    expect(skill.dir).toBe(path.join(repo, ".clinerules"));
  });
});

describe("bad input (fixtures/compat/bad-input)", async () => {
  const repo = await copyFixture("bad-input");
  const { skills, diagnostics } = await loadGuidance(repo);

  test("binary and non-UTF-8 files are skipped with a diagnostic; siblings load", () => {
    expect(skills.map((s) => s.name)).toEqual(["agents", "cursor:bad-fields", "cursor:ok", "cursor:unclosed"]);
    expect(diagnostics).toContainEqual(
      expect.objectContaining({ code: "GUIDANCE_BINARY", severity: "error", path: path.join(repo, "CLAUDE.md") }),
    );
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        code: "GUIDANCE_NOT_UTF8",
        severity: "error",
        path: path.join(repo, "GEMINI.md"),
        line: 1,
      }),
    );
  });

  test("an unclosed .mdc frontmatter keeps the whole text, loadable by name only", async () => {
    const file = path.join(repo, ".cursor/rules/unclosed.mdc");
    expect(byName(skills, "cursor:unclosed")).toMatchObject({
      content: await readFile(file, "utf8"),
      trigger: { type: "command", prefix: "@" },
    });
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: "FRONTMATTER_UNCLOSED", path: file, line: 1 }));
  });

  test("fields of the wrong type are warnings; the rule loads without them", () => {
    const file = path.join(repo, ".cursor/rules/bad-fields.mdc");
    expect(diagnostics.filter((d) => d.path === file).map((d) => [d.code, d.line])).toEqual([
      ["RULE_FIELD_INVALID", 2],
      ["RULE_FIELD_INVALID", 3],
    ]);
    expect(byName(skills, "cursor:bad-fields").trigger).toEqual({ type: "command", prefix: "@" });
  });
});

describe("size limit", () => {
  test("a guidance file over maxGuidanceBytes is cut at a line boundary, with a note and a diagnostic", async () => {
    const repo = await tempDir();
    const line = `${"word ".repeat(15)}\n`;
    const text = line.repeat(Math.ceil(300_000 / line.length));
    await put(repo, "AGENTS.md", text);
    await put(repo, "CLAUDE.md", "small\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    const agents = byName(skills, "agents");
    expect(Buffer.byteLength(agents.content)).toBeLessThanOrEqual(262_144);
    const note = agents.content.lastIndexOf("\n[skillctx: AGENTS.md was truncated here");
    expect(note).toBeGreaterThan(200_000);
    expect(text.startsWith(agents.content.slice(0, note))).toBe(true);
    expect(agents.content.slice(0, note).endsWith("\n")).toBe(true);
    expect(agents.metadata["truncated"]).toBe("true");
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "GUIDANCE_TRUNCATED", path: path.join(repo, "AGENTS.md") }),
    ]);
    expect(byName(skills, "claude").content).toBe("small\n");
  });

  test("the limit is an option and counts imported text too", async () => {
    const repo = await tempDir();
    await put(repo, "big.md", "imported line\n".repeat(100));
    await put(repo, "CLAUDE.md", "head\n@big.md\n");
    const { skills, diagnostics } = await loadGuidance(repo, { maxGuidanceBytes: 600 });
    expect(Buffer.byteLength(byName(skills, "claude").content)).toBeLessThanOrEqual(600);
    expect(
      byName(skills, "claude").content.startsWith("head\n@big.md\n<!-- imported from big.md -->\nimported line\n"),
    ).toBe(true);
    expect(diagnostics.map((d) => d.code)).toContain("GUIDANCE_TRUNCATED");
  });
});

describe("options and errors", () => {
  test("CRLF and a missing final newline are kept", async () => {
    const repo = await tempDir();
    await put(repo, ".windsurfrules", "a\r\nb\r\n\r\nc");
    expect((await loadGuidance(repo)).skills[0]?.content).toBe("a\r\nb\r\n\r\nc");
  });

  test("an empty folder has no guidance and no findings", async () => {
    expect(await loadGuidance(await tempDir())).toEqual({ skills: [], diagnostics: [] });
  });

  test("a missing cwd is a SkillctxError", async () => {
    const missing = path.join(await tempDir(), "nope");
    const error = await loadGuidance(missing).catch((e: unknown) => e);
    expect(SkillctxError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "PATH_NOT_FOUND", path: missing });
  });

  test("an aborted signal rejects", async () => {
    const repo = await copyFixture("all-formats");
    await expect(loadGuidance(repo, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });
});
