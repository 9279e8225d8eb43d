/**
 * Help for people: wrapped to the terminal's width (80 columns when stdout is not a terminal), examples
 * in every command's help, a suggestion for a mistyped command or flag, a reference the installed
 * package can reach (a URL, not a repository path), and a `list` table that fits a narrow terminal.
 * In process, through the CLI's own `runCli` with the width a terminal would report.
 */
import { describe, expect, it } from "vitest";
import { COMMAND_SPECS } from "../packages/cli/src/command-specs.js";
import { CLI_DOCS_URL } from "../packages/cli/src/help.js";
import { runCli } from "../packages/cli/src/run.js";
import { DEMO } from "./helpers/cli.js";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";

const tempDir = useTempDirs("cli-help");

async function run(args: string[], columns?: number) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    columns,
  });
  return { code, stdout, stderr };
}

const widest = (text: string) => Math.max(...text.split("\n").map((l) => [...l].length));
const HELPS = [["--help"], ...COMMAND_SPECS.map((c) => ["help", c.name])];

describe("help text", () => {
  it.each(HELPS)("%s %s wraps to 80 columns without a terminal, and to the terminal's width", async (...args) => {
    const plain = await run(args);
    expect(plain.code).toBe(0);
    expect(widest(plain.stdout)).toBeLessThanOrEqual(80);
    expect(widest(plain.stdout)).toBeGreaterThan(60); // it uses the width it has
    const narrow = await run(args, 60);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(60);
    const wide = await run(args, 160);
    expect(widest(wide.stdout)).toBeLessThanOrEqual(160);
    // Wrapping moves words, never loses one.
    const words = (t: string) => t.split(/\s+/).filter((w) => w !== "");
    expect(words(narrow.stdout)).toEqual(words(plain.stdout));
    expect(words(wide.stdout)).toEqual(words(plain.stdout));
  });

  it.each(COMMAND_SPECS.map((c) => c.name))("`%s` help shows examples that use the command", async (name) => {
    const spec = COMMAND_SPECS.find((c) => c.name === name)!;
    expect(spec.examples?.length ?? 0).toBeGreaterThan(0);
    const { stdout } = await run(["help", name]);
    expect(stdout).toMatch(/^examples:$/m);
    for (const example of spec.examples!) {
      expect(example.run.startsWith(`skillctx ${name}`)).toBe(true);
      expect(stdout).toContain(`  $ ${example.run}`);
    }
  });

  it("points at the reference by URL: the installed packages have no docs/ folder", async () => {
    const texts = await Promise.all(HELPS.map((args) => run(args)));
    const all = texts.map((t) => t.stdout).join("\n");
    expect(all).toContain(CLI_DOCS_URL);
    expect(all.replace(/https:\/\/\S+/g, "")).not.toMatch(/docs\/[\w-]+\.md/);
  });
});

describe("a mistyped name gets a suggestion", () => {
  it.each([
    ["lsit", "list"],
    ["valdiate", "validate"],
    ["sevre", "serve"],
  ])("`skillctx %s` suggests %s (exit 2)", async (typed, meant) => {
    const { code, stderr } = await run([typed]);
    expect(code).toBe(2);
    expect(stderr).toContain(`unknown command '${typed}'; did you mean '${meant}'?`);
    expect((await run(["help", typed])).stderr).toContain(`did you mean '${meant}'?`);
  });

  it("suggests nothing for a name far from every command", async () => {
    const { stderr } = await run(["frobnicate"]);
    expect(stderr).toContain("unknown command 'frobnicate'");
    expect(stderr).not.toContain("did you mean");
  });

  it("suggests a flag of the same command for a mistyped option", async () => {
    const { code, stderr } = await run(["validate", "--jsn", "."]);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown option '--jsn'; did you mean '--json'?");
  });
});

describe("skillctx list on a narrow terminal", () => {
  it("fits 60 columns: each description wrapped under its skill; a pipe is laid out for 80 whatever the terminal", async () => {
    const home = await tempDir();
    const previous = process.env.HOME;
    process.env.HOME = home; // no user skills of the machine running the test
    try {
      const narrow = await run(["list", "--cwd", DEMO, "--no-user"], 60);
      const piped = await run(["list", "--cwd", DEMO, "--no-user"]);
      const at80 = await run(["list", "--cwd", DEMO, "--no-user"], 80);
      expect(narrow.code).toBe(0);
      expect(widest(narrow.stdout)).toBeLessThanOrEqual(60);
      expect(narrow.stdout.split("\n")[0]).toMatch(/^NAME +TRIGGER +INVOKE/);
      expect(narrow.stdout).toMatch(/^ {4}Adds a REST/m);
      // Piped output does not depend on the terminal: the same as at 80 columns.
      expect(piped.stdout).toBe(at80.stdout);
      expect(widest(piped.stdout)).toBeLessThanOrEqual(80);
      // Every skill is still listed, by name, at every width.
      const names = (t: string) =>
        t
          .split("\n\n")[0]!
          .split("\n")
          .filter((l) => /^[a-z]/.test(l))
          .map((l) => l.split(" ")[0]);
      expect(names(narrow.stdout)).toEqual(names(piped.stdout));
      expect(names(piped.stdout).length).toBeGreaterThanOrEqual(7);
    } finally {
      process.env.HOME = previous;
    }
  });
});
