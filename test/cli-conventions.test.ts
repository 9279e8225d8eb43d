// The CLI's conventions (clig.dev), end to end on the BUILT CLI in child processes: --version, help on
// every command, exit codes, stdout for data and stderr for diagnostics, --json everywhere, one-line
// errors, a closed pipe, Ctrl-C.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { pidsWith, uniqueSleep } from "../packages/process/src/test-utils.js";
import { assertBuilt, CLI, runCli, ROOT, startCli, cliJson } from "./helpers/cli.js";

const tempDir = useTempDirs("cli-conventions");
const COMMANDS = ["list", "catalog", "build", "context", "render", "validate", "search", "sync", "serve"];
const skillMd = (name: string, description: string, body = `Body of ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

beforeAll(assertBuilt);

describe("version and help", () => {
  it("--version prints package.json's version on stdout, exit 0", async () => {
    const home = await tempDir();
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "packages/skillctx/package.json"), "utf8")) as {
      version: string;
    };
    expect(await runCli(["--version"], { home })).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  it("--help and -h print the overview on stdout, exit 0; no arguments print it on stderr, exit 2", async () => {
    const home = await tempDir();
    for (const flag of ["--help", "-h", "help"]) {
      const run = await runCli([flag], { home });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(/^usage: skillctx <command>/);
      for (const name of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    }
    const bare = await runCli([], { home });
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toMatch(/^usage: skillctx <command>/);
  });

  it("every command has -h, --help and `skillctx help <command>`, all the same text, listing every flag it takes", async () => {
    const home = await tempDir();
    for (const name of COMMANDS) {
      const runs = await Promise.all(
        [
          ["help", name],
          [name, "--help"],
          [name, "-h"],
          [name, "--json", "--help"],
        ].map((args) => runCli(args, { home })),
      );
      for (const run of runs) {
        expect(run.code, `${name}: ${run.stderr}`).toBe(0);
        expect(run.stderr).toBe("");
        expect(run.stdout).toBe(runs[0]!.stdout);
      }
      const text = runs[0]!.stdout;
      expect(text.startsWith(`usage: skillctx ${name}`)).toBe(true);
      // Every flag in the usage line (wrapped: up to the first blank line) is explained below it.
      const usage = text.split("\n\n")[0]!;
      for (const flag of usage.match(/--[a-z-]+/g) ?? [])
        expect(text, `${name} ${flag}`).toMatch(new RegExp(`^  (-\\w, )?${flag}\\b`, "m"));
      expect(text).toMatch(/^ {2}--debug /m);
    }
  });

  it("help on an unknown command is a usage error", async () => {
    const home = await tempDir();
    const run = await runCli(["help", "frob"], { home });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("help --json describes every command and its options", async () => {
    const home = await tempDir();
    const run = await runCli(["help", "--json"], { home });
    expect(run.code).toBe(0);
    const json = cliJson(run.stdout) as {
      commands: Array<{ name: string; usage: string; options: Array<{ flag: string }> }>;
    };
    expect(json.commands.map((c) => c.name)).toEqual(COMMANDS);
    expect(json.commands.every((c) => c.options.some((o) => o.flag === "--debug"))).toBe(true);
  });
});

describe("errors: one line, exit 2 for usage and 1 for failure", () => {
  it("build --cwd /missing: one line on stderr naming the flag, nothing on stdout, exit 2", async () => {
    const home = await tempDir();
    const missing = path.join(home, "missing");
    for (const command of ["build", "list", "catalog"]) {
      const run = await runCli([command, "--cwd", missing], { home });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `skillctx ${command}: --cwd ${missing}: no such folder (see skillctx ${command} --help)\n`,
      );
    }
  });

  it("--cwd naming a file is a usage error too", async () => {
    const dir = await tempDir({ "file.txt": "x" });
    const run = await runCli(["list", "--cwd", path.join(dir, "file.txt")], { home: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not a folder");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("unknown commands, unknown options, missing values and stray arguments: one line each, exit 2", async () => {
    const home = await tempDir();
    const cases: Array<[string[], string]> = [
      [["frob"], "skillctx: unknown command 'frob'"],
      [["--frob"], "skillctx: unknown option '--frob'"],
      [["list", "--bogus"], "skillctx list: unknown option '--bogus'"],
      [["build", "--cwd"], "skillctx build: --cwd needs a value"],
      [["build", "-m"], "skillctx build: --message needs a value"],
      [["list", "--json=yes"], "skillctx list: --json takes no value"],
      [["list", "extra"], "skillctx list: unexpected argument 'extra'"],
      [["list", "--user", "--no-user"], "skillctx list: --user and --no-user exclude each other"],
      [["catalog", "--format", "html"], "skillctx catalog: --format must be xml or markdown, got 'html'"],
      [["catalog", "--budget", "12k"], "skillctx catalog: --budget must be a whole number"],
      [["build", "--budget=-3"], "skillctx build: --budget must be a whole number"],
      [["render"], "skillctx render: expected exactly one FILE"],
      [["context", "--window", "lots"], "skillctx context: --window must be a number of tokens"],
    ];
    for (const [args, start] of cases) {
      const run = await runCli(args, { home, cwd: home });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout, args.join(" ")).toBe("");
      expect(run.stderr.startsWith(start), `${args.join(" ")}: ${run.stderr}`).toBe(true);
      expect(run.stderr.endsWith("\n") && !run.stderr.slice(0, -1).includes("\n"), run.stderr).toBe(true);
    }
  });

  it("a file that cannot be read is one finding line on stderr, exit 1", async () => {
    const repo = await tempDir({ "AGENTS.md": "# Rules\n" });
    const run = await runCli(["render", repo], { home: path.join(repo, ".no-home") });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`${repo}: error NOT_A_FILE ${run.stderr.split(" NOT_A_FILE ")[1]}`);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});

describe("stdout is data, stderr is diagnostics", () => {
  it("list: the table on stdout, a broken skill's finding on stderr, exit 1", async () => {
    const repo = await tempDir({
      ".agents/skills/good/SKILL.md": skillMd("good", "Fine"),
      // A flow list that goes on below its line: no repair (Codex's included) reads it.
      ".agents/skills/bad/SKILL.md": "---\nname: bad\ndescription: [never closed,\n  still open\n---\nBody.\n",
    });
    const run = await runCli(["list", "--cwd", repo, "--no-user"], { home: path.join(repo, ".no-home") });
    expect(run.code).toBe(1);
    // Name on one line, description under it (every row is project, on-demand: said once at the end).
    expect(run.stdout).toMatch(/^good\n {4}Fine$/m);
    expect(run.stdout).not.toContain("YAML_INVALID");
    expect(run.stderr).toContain(`${path.join(repo, ".agents/skills/bad/SKILL.md")}:4: error YAML_INVALID`);
  });

  it("catalog: the catalog on stdout, its summary on stderr", async () => {
    const repo = await tempDir({ ".agents/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.") });
    const run = await runCli(["catalog", "--cwd", repo, "--no-user"], { home: path.join(repo, ".no-home") });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("<name>pdf</name>");
    expect(run.stdout).not.toContain("tokens");
    expect(run.stderr).toMatch(/^catalog: \d+ tokens \(o200k_base\), no budget, level full, 1 of 1 skills listed\n$/);
  });

  it("build: steps and context on stdout, the untrusted-command warning on stderr", async () => {
    const repo = await tempDir({ "AGENTS.md": "# Rules\nToday: !`date +%Y`\n" });
    const run = await runCli(["build", "--cwd", repo, "--no-user"], { home: path.join(repo, ".no-home") });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("══ system");
    expect(run.stdout).not.toContain("COMMAND_NOT_RUN");
    expect(run.stderr).toContain("warning COMMAND_NOT_RUN");
  });
});

describe("--json on every command", () => {
  it("each command prints one JSON document on stdout and nothing on stderr", async () => {
    const repo = await tempDir({
      ".agents/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms."),
      "AGENTS.md": "# Rules\nRun the tests.\n",
    });
    const cases: Array<[string[], (json: Record<string, unknown>) => void]> = [
      [["list", "--cwd", repo, "--no-user"], (j) => expect(j).toHaveProperty("skills")],
      [["catalog", "--cwd", repo, "--no-user"], (j) => expect(j).toMatchObject({ included: ["pdf"], level: "full" })],
      [["build", "--cwd", repo, "--no-user", "-m", "hello"], (j) => expect(j).toHaveProperty("system")],
      [
        ["render", path.join(repo, ".agents/skills/pdf/SKILL.md")],
        (j) => expect(j).toMatchObject({ text: "Body of pdf.\n", diagnostics: [] }),
      ],
      [
        ["validate", path.join(repo, ".agents/skills/pdf")],
        (j) => expect(j).toMatchObject({ results: [{ valid: true }] }),
      ],
    ];
    for (const [args, check] of cases) {
      const run = await runCli([...args, "--json"], { home: path.join(repo, ".no-home") });
      expect(run.code, `${args[0]}: ${run.stderr}`).toBe(0);
      expect(run.stderr, args[0]).toBe("");
      check(cliJson(run.stdout) as Record<string, unknown>);
    }
  });
});

describe("the same flags mean the same thing everywhere", () => {
  it("--user / --no-user are accepted by every command that loads skills, and include / leave out user skills", async () => {
    const repo = await tempDir({ ".agents/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.") });
    const home = await tempDir({ ".agents/skills/mine/SKILL.md": skillMd("mine", "A user skill") });
    for (const command of ["list", "catalog", "build"]) {
      const withUser = await runCli([command, "--cwd", repo, "--user", "--json"], { home });
      const byDefault = await runCli([command, "--cwd", repo, "--json"], { home });
      const without = await runCli([command, "--cwd", repo, "--no-user", "--json"], { home });
      for (const run of [withUser, byDefault, without]) expect(run.code, `${command}: ${run.stderr}`).toBe(0);
      expect(withUser.stdout, command).toContain("mine");
      // The library's default: no home folder unless asked (docs/decisions.md, "One default for user skills").
      expect(byDefault.stdout, command).toBe(without.stdout);
      expect(without.stdout, command).not.toContain("mine");
    }
  });

  it("--model gates model-specific guidance in list, catalog and build alike", async () => {
    const repo = await tempDir({ "AGENTS.md": "# Rules\n", "CLAUDE.md": "# Claude rules\n" });
    const list = async (model: string) =>
      (
        cliJson(
          (
            await runCli(["list", "--cwd", repo, "--no-user", "--json", "--model", model], {
              home: path.join(repo, ".no-home"),
            })
          ).stdout,
        ) as { skills: Array<{ name: string }> }
      ).skills.map((s) => s.name);
    const forClaude = await list("claude-sonnet-4-5");
    const forGpt = await list("gpt-4o");
    expect(forClaude.some((n) => n.startsWith("claude"))).toBe(true);
    expect(forGpt.some((n) => n.startsWith("claude"))).toBe(false);
    const build = await runCli(["build", "--cwd", repo, "--no-user", "--json", "--model", "gpt-4o"], {
      home: path.join(repo, ".no-home"),
    });
    expect((cliJson(build.stdout) as { system: string }).system).not.toContain("Claude rules");
  });

  it("--trust runs project commands; without it the marker names the --trust flag, never a library option", async () => {
    const repo = await tempDir({ "AGENTS.md": "# Rules\nYear: !`echo 2049`\n" });
    const untrusted = await runCli(["build", "--cwd", repo, "--no-user"], { home: path.join(repo, ".no-home") });
    expect(untrusted.stdout).toContain("Run skillctx with --trust to allow it.");
    expect(untrusted.stdout + untrusted.stderr).not.toContain("trust: {");
    const trusted = await runCli(["build", "--cwd", repo, "--no-user", "--trust"], {
      home: path.join(repo, ".no-home"),
    });
    expect(trusted.stdout).toContain("Year: 2049");
    const rendered = await runCli(["render", path.join(repo, "AGENTS.md"), "--cwd", repo], {
      home: path.join(repo, ".no-home"),
    });
    expect(rendered.stdout).toContain(
      "Year: [Not run: `echo 2049` comes from a project skill, which is not trusted. Run skillctx with --trust to allow it.]",
    );
  });
});

// About 1 MB of `list --json`: far more than a pipe buffers, so the CLI is still writing when the reader goes.
function manySkills(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 600; i++)
    files[`.agents/skills/s${i}/SKILL.md`] = skillMd(`s${i}`, `Skill ${i}: ${"lorem ipsum dolor ".repeat(50)}`);
  return files;
}

describe("a closed pipe and Ctrl-C", () => {
  it("list --json into a reader that closes after 100 bytes: ends quietly, exit 0, nothing on stderr", async () => {
    const repo = await tempDir(manySkills());
    const cli = startCli(["list", "--cwd", repo, "--no-user", "--json"], { home: path.join(repo, ".no-home") });
    let received = 0;
    cli.child.stdout!.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received >= 100) cli.child.stdout!.destroy();
    });
    const exit = await cli.exited;
    expect(exit.signal).toBeNull();
    expect(exit.code).toBe(0);
    expect(cli.stderr()).toBe("");
  });

  it("the same through a shell pipeline: `skillctx list --json | head -c 100`", async () => {
    const repo = await tempDir(manySkills());
    const script = `"${process.execPath}" "${CLI}" list --cwd "${repo}" --no-user --json 2>"${repo}/err" | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    const status = execFileSync("bash", ["-c", script], {
      env: { PATH: process.env.PATH ?? "", HOME: repo },
      encoding: "utf8",
    });
    expect(status.trim()).toBe("0");
    expect(readFileSync(path.join(repo, "err"), "utf8")).toBe("");
  });

  it("Ctrl-C during build on a trusted repository whose guidance runs sleep: exit 130 at once, no sleep left running", async () => {
    const tag = uniqueSleep();
    const repo = await tempDir({ "AGENTS.md": `# Rules\nStatus: !\`sleep ${tag}\`\n` });
    const cli = startCli(["build", "--cwd", repo, "--no-user", "--trust"], { home: path.join(repo, ".no-home") });
    // Wait until the guidance command is running.
    const deadline = Date.now() + 15_000;
    while (pidsWith(`sleep ${tag}`).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(pidsWith(`sleep ${tag}`).length).toBeGreaterThan(0);
    const sent = performance.now();
    cli.child.kill("SIGINT");
    const exit = await cli.exited;
    expect(exit.code).toBe(130);
    // Far below the 31 s the command would take (generous: no timing assertion, only "it did not wait").
    expect(performance.now() - sent).toBeLessThan(15_000);
    expect(cli.stderr()).not.toMatch(/at .*\.js:\d+/);
    expect(pidsWith(`sleep ${tag}`)).toEqual([]);
  });
});
