import { readFile, symlink, writeFile, cp } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentContext, AgentContextOptions } from "skillctx";
import { useToolSkills } from "./helpers/tools-fixture.js";
import { itWithTool } from "./helpers/tools-present.js";

const suite = useToolSkills();
const context = (options: Partial<AgentContextOptions> = {}) => suite.context(options);

const read = (ctx: AgentContext, args: Record<string, unknown>) =>
  ctx.callTool("read_skill_resource", { name: "pdf-forms", ...args });
const run = (ctx: AgentContext, script: string, args?: string[]) =>
  ctx.callTool("run_skill_script", { name: "pdf-forms", script, ...(args !== undefined && { args }) });

// Gone, or a zombie waiting for a parent to reap it (in a container, PID 1 may never reap): not running either way.
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

describe("read_skill_resource", () => {
  it("reads a text file of the skill, whole or by line range", async () => {
    const ctx = await context();
    const file = await readFile(path.join(suite.copy.skills, "pdf-forms/references/forms.md"), "utf8");
    expect(await read(ctx, { path: "references/forms.md" })).toEqual({ content: file });
    expect(await read(ctx, { path: "./references//forms.md" })).toEqual({ content: file });
    const lines = file.split("\n");
    expect(await read(ctx, { path: "references/forms.md", startLine: 3, endLine: 4 })).toEqual({
      content: `${lines[2]}\n${lines[3]}\n`,
    });
    expect(await read(ctx, { path: "references/forms.md", startLine: "5" })).toEqual({
      content: `${lines.slice(4).join("\n")}`,
    });
  });

  it.each([
    ["a parent segment", "../release-notes/SKILL.md", "`..` is not allowed"],
    ["a parent segment in the middle", "references/../../release-notes/SKILL.md", "`..` is not allowed"],
    ["a bare parent", "..", "`..` is not allowed"],
    ["an absolute path", "/etc/passwd", "absolute paths are not allowed"],
    ["a home path", "~/.ssh/id_rsa", "absolute paths are not allowed"],
    ["a drive path", "C:/Windows/win.ini", "absolute paths are not allowed"],
    ["encoded dots and slash", "%2e%2e%2frelease-notes%2fSKILL.md", "percent-encoded"],
    ["an encoded slash after dots", "..%2frelease-notes/SKILL.md", "percent-encoded"],
    ["upper-case encoding", "%2E%2E/release-notes/SKILL.md", "percent-encoded"],
    ["double encoding", "%252e%252e%252fSKILL.md", "percent-encoded"],
    ["an overlong UTF-8 dot", "%c0%ae%c0%ae/SKILL.md", "percent-encoded"],
    ["backslashes", "references\\forms.md", "backslashes are not allowed"],
    ["backslash traversal", "..\\..\\etc\\passwd", "backslashes are not allowed"],
    ["a NUL byte", "references/forms.md\u0000.png", "NUL bytes are not allowed"],
    ["an empty path", "  ", "the path is empty"],
    ["the folder itself", "./", "names the skill folder itself"],
  ])("refuses %s", async (_label, requested, reason) => {
    const ctx = await context();
    const result = await read(ctx, { path: requested });
    expect(result.isError).toBe(true);
    expect(result.content).toContain(reason);
    expect(result.content).not.toContain("lower_snake_case");
  });

  it("refuses the skill's own absolute path too", async () => {
    const ctx = await context();
    const result = await read(ctx, { path: path.join(suite.copy.skills, "pdf-forms/references/forms.md") });
    expect(result).toEqual({ isError: true, content: expect.stringContaining("absolute paths are not allowed") });
  });

  it("follows symlinks inside the folder and refuses those that leave it", async () => {
    const skill = path.join(suite.copy.skills, "pdf-forms");
    await writeFile(path.join(suite.copy.cwd, "secret.txt"), "TOP SECRET\n");
    await symlink("forms.md", path.join(skill, "references/alias.md"));
    await symlink(path.join(suite.copy.cwd, "secret.txt"), path.join(skill, "references/escape.md"));
    await symlink(suite.copy.cwd, path.join(skill, "references/outside-dir"));
    await symlink("../../release-notes/SKILL.md", path.join(skill, "references/sibling.md"));
    await symlink("loop-b", path.join(skill, "references/loop-a"));
    await symlink("loop-a", path.join(skill, "references/loop-b"));
    const ctx = await context();
    expect((await read(ctx, { path: "references/alias.md" })).content).toContain("lower_snake_case");
    for (const requested of ["references/escape.md", "references/outside-dir/secret.txt", "references/sibling.md"]) {
      const result = await read(ctx, { path: requested });
      expect(result.isError, requested).toBe(true);
      expect(result.content).toContain("outside the skill folder");
      expect(result.content).not.toContain("TOP SECRET");
    }
    const loop = await read(ctx, { path: "references/loop-a" });
    expect(loop).toEqual({ isError: true, content: expect.stringContaining("symlink loop") });
  });

  it("refuses binary files, folders and missing files, with a hint of what exists", async () => {
    const ctx = await context();
    expect(await read(ctx, { path: "assets/logo.png" })).toEqual({
      isError: true,
      content: "Refused assets/logo.png: it is a binary file; only text files can be read.",
    });
    await writeFile(
      path.join(suite.copy.skills, "pdf-forms/references/latin1.txt"),
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    );
    expect((await read(ctx, { path: "references/latin1.txt" })).content).toContain("binary file");
    const folder = await read(ctx, { path: "references" });
    expect(folder).toEqual({
      isError: true,
      content: expect.stringContaining("references is a folder, not a file. Files: references/forms.md"),
    });
    const missing = await read(ctx, { path: "references/nope.md" });
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain(
      'No file references/nope.md in the skill "pdf-forms". Files: assets/logo.png, references/forms.md',
    );
  });

  it("cuts a large file at a line boundary with a note, and reads on from startLine", async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${String(i + 1).padStart(4, "0")} ${"x".repeat(30)}`);
    await writeFile(path.join(suite.copy.skills, "pdf-forms/references/big.md"), `${lines.join("\n")}\n`);
    const ctx = await context({ tools: { skillTools: { maxResourceBytes: 1000 } } });
    const first = await read(ctx, { path: "references/big.md" });
    expect(first.isError).toBeUndefined();
    // Each line is 41 bytes with its newline: 24 fit in 1,000 bytes.
    const expectedText = `${lines.slice(0, 24).join("\n")}\n`;
    expect(first.content).toBe(
      `${expectedText}\n[Cut at 1000 bytes: showing lines 1-24 of references/big.md (20500 bytes in all). Read on with startLine 25.]`,
    );
    const next = await read(ctx, { path: "references/big.md", startLine: 25, endLine: 26 });
    expect(next.content).toBe(`${lines[24]}\n${lines[25]}\n`);
    const last = await read(ctx, { path: "references/big.md", startLine: 500 });
    expect(last.content).toBe(`${lines[499]}\n`);
    const past = await read(ctx, { path: "references/big.md", startLine: 501 });
    expect(past).toEqual({ isError: true, content: "startLine 501 is past the end of references/big.md (500 lines)." });
    const backwards = await read(ctx, { path: "references/big.md", startLine: 9, endLine: 3 });
    expect(backwards.isError).toBe(true);
  });

  it("cuts a single line longer than the cap on a character boundary", async () => {
    await writeFile(path.join(suite.copy.skills, "pdf-forms/references/wide.md"), `${"é".repeat(600)}\nnext\n`);
    const ctx = await context({ tools: { skillTools: { maxResourceBytes: 101 } } });
    const result = await read(ctx, { path: "references/wide.md" });
    expect(result.content.startsWith(`${"é".repeat(50)}\n`)).toBe(true);
    expect(result.content).toContain("showing the start of line 1");
  });

  it("limits reads to the frontmatter resources list when the skill has one", async () => {
    const ctx = await context();
    const ok = await ctx.callTool("read_skill_resource", { name: "with-resources", path: "data/reference.txt" });
    expect(ok).toEqual({ content: "reference line 1\nreference line 2\n" });
    for (const requested of ["data/secret.txt", "SKILL.md"]) {
      const refused = await ctx.callTool("read_skill_resource", { name: "with-resources", path: requested });
      expect(refused.isError).toBe(true);
      expect(refused.content).toContain("not one of them: data/reference.txt");
    }
  });

  it("refuses unknown skills and skills without a folder", async () => {
    await writeFile(path.join(suite.copy.cwd, "single.md"), "---\nname: single\ndescription: One file.\n---\nBody.\n");
    const ctx = await context({ skills: [suite.copy.skills, path.join(suite.copy.cwd, "single.md")] });
    const unknown = await ctx.callTool("read_skill_resource", { name: "nope", path: "a.md" });
    expect(unknown.content).toBe(
      'Unknown skill "nope". Available skills: internal-only, pdf-forms, release-notes, with-resources.',
    );
    const single = await ctx.callTool("read_skill_resource", { name: "single", path: "a.md" });
    expect(single).toEqual({
      isError: true,
      content: 'The skill "single" has no folder of files (it is a single-file skill).',
    });
  });
});

describe("run_skill_script", () => {
  itWithTool("python3")("runs each kind of script with the skill folder as working directory", async () => {
    const ctx = await context();
    expect(await run(ctx, "scripts/fill.py", ["name=Ada", "date=2024-05-01"])).toEqual({
      content: "cwd=pdf-forms\nfilled name -> Ada\nfilled date -> 2024-05-01",
    });
    expect(await run(ctx, "hello.sh", ["world"])).toEqual({
      content: "hello from bash world\n[stderr]\nwarning: nothing to do",
    });
    expect(await run(ctx, "scripts/greet.js", ["Ada"])).toEqual({ content: "greet.js says hi to Ada" });
    expect(await run(ctx, "scripts/esm.mjs")).toEqual({ content: "esm.mjs in pdf-forms" });
    expect(await run(ctx, "scripts/typed.ts")).toEqual({ content: "typed.ts counted 3 pages" });
    expect(await run(ctx, "scripts/bare", ["a", "b c"])).toEqual({ content: "bare executable got 2 args: a b c" });
  });

  it("reports a failing exit code as an error result with its output", async () => {
    const ctx = await context();
    expect(await run(ctx, "scripts/fail.sh")).toEqual({
      isError: true,
      content: "about to fail\n[stderr]\nbad input\n[scripts/fail.sh exited with code 3]",
    });
  });

  it("refuses files without a runner, paths outside scripts/ and symlinks that leave it", async () => {
    const skill = path.join(suite.copy.skills, "pdf-forms");
    await symlink("../references/forms.md", path.join(skill, "scripts/forms-link.sh"));
    const ctx = await context();
    expect((await run(ctx, "scripts/notes")).content).toBe(
      "No runner for scripts/notes: use .py, .sh, .js, .mjs, .cjs, .ts, or make the file executable.",
    );
    const cases: Array<[string, string]> = [
      ["../SKILL.md", "`..` is not allowed"],
      ["scripts/../references/forms.md", "`..` is not allowed"],
      ["references/forms.md", "No script scripts/references/forms.md"],
      [path.join(skill, "scripts/hello.sh"), "absolute paths are not allowed"],
      ["scripts%2f..%2fSKILL.md", "percent-encoded"],
      ["scripts\\hello.sh", "backslashes"],
      ["hello.sh\u0000", "NUL bytes"],
      ["scripts/forms-link.sh", "outside the skill's scripts/ folder"],
      ["scripts", "Name a script file"],
    ];
    for (const [script, reason] of cases) {
      const result = await run(ctx, script);
      expect(result.isError, script).toBe(true);
      expect(result.content, script).toContain(reason);
    }
  });

  it("runs scripts of untrusted project skills only when the host trusts the project", async () => {
    await cp(path.join(suite.copy.skills, "pdf-forms"), path.join(suite.copy.cwd, ".agents/skills/pdf-forms"), {
      recursive: true,
    });
    const untrusted = await context({ skills: [] });
    const refused = await run(untrusted, "scripts/greet.js");
    expect(refused).toEqual({
      isError: true,
      content:
        'Not run: the skill "pdf-forms" comes from the project scope, which is not trusted to run scripts. (The host can allow it with trust: { project: true }.)',
    });
    const trusted = await context({ skills: [], trust: { project: true } });
    expect(await run(trusted, "scripts/greet.js", ["repo"])).toEqual({ content: "greet.js says hi to repo" });
    // Inside cwd, the loaded skill's folder is relative.
    expect((await trusted.callTool("load_skill", { name: "pdf-forms" })).content).toContain(
      "\nSkill folder: .agents/skills/pdf-forms (",
    );
  });

  it("passes only the allowlisted environment plus what the host configured", async () => {
    process.env.SKILLCTX_TEST_SECRET = "leaked";
    try {
      const ctx = await context({ tools: { skillTools: { scripts: { env: { SKILL_EXTRA: "yes" } } } } });
      expect(await run(ctx, "scripts/env.js")).toEqual({ content: "SECRET=(unset) EXTRA=yes" });
    } finally {
      delete process.env.SKILLCTX_TEST_SECRET;
    }
  });

  it("kills the script's whole process group at the timeout", async () => {
    const script = path.join(suite.copy.skills, "pdf-forms/scripts/slow.sh");
    await writeFile(script, "sleep 30 &\necho $! > child.pid\necho $$ > parent.pid\nwait\n");
    const ctx = await context({ tools: { skillTools: { scripts: { timeoutMs: 300 } } } });
    const result = await run(ctx, "scripts/slow.sh");
    expect(result).toEqual({ isError: true, content: "[scripts/slow.sh timed out after 300 ms; it was stopped]" });
    const dir = path.join(suite.copy.skills, "pdf-forms");
    const child = Number(await readFile(path.join(dir, "child.pid"), "utf8"));
    const parent = Number(await readFile(path.join(dir, "parent.pid"), "utf8"));
    expect(processGone(parent)).toBe(true);
    expect(processGone(child)).toBe(true);
  });

  it("stops a script whose output passes the cap and says so", async () => {
    await writeFile(
      path.join(suite.copy.skills, "pdf-forms/scripts/loud.js"),
      'for (;;) process.stdout.write("y".repeat(1000) + "\\n");\n',
    );
    const ctx = await context({ tools: { skillTools: { scripts: { maxOutputBytes: 2000 } } } });
    const result = await run(ctx, "scripts/loud.js");
    expect(result.isError).toBeUndefined();
    expect(result.content.endsWith("[output cut at 2000 bytes; scripts/loud.js was stopped]")).toBe(true);
    expect(result.content.length).toBeLessThan(2100);
  });

  it("rejects and kills the script when the caller aborts", async () => {
    const script = path.join(suite.copy.skills, "pdf-forms/scripts/wait.sh");
    await writeFile(script, "echo $$ > wait.pid\nsleep 30\n");
    const ctx = await context();
    const controller = new AbortController();
    const pending = ctx.callTool(
      "run_skill_script",
      { name: "pdf-forms", script: "scripts/wait.sh" },
      { signal: controller.signal },
    );
    const pidFile = path.join(suite.copy.skills, "pdf-forms/wait.pid");
    for (let i = 0; i < 200; i++) {
      const text = await readFile(pidFile, "utf8").catch(() => "");
      if (text.trim() !== "") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort(new Error("user stopped"));
    await expect(pending).rejects.toThrow("user stopped");
    expect(processGone(Number(await readFile(pidFile, "utf8")))).toBe(true);
  });

  it("refuses bad arguments", async () => {
    const ctx = await context();
    const result = await ctx.callTool("run_skill_script", {
      name: "pdf-forms",
      script: "scripts/greet.js",
      args: "Ada",
    });
    expect(result.isError).toBe(true);
    expect(result.content).toContain("args: Invalid input: expected array");
  });
});
