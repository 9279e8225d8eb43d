// Hostile input for the CLI, each case in a separate process (runIsolated) with generous bounds stated
// in the test names. The scripts run the BUILT CLI as child processes where the real process matters
// (what reaches a terminal, a FIFO given as --cwd), and the CLI's runCli in process where the memory
// of the command itself is what is bounded.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(ROOT, "packages/skillctx/bin/skillctx.js");
const RUN_CLI = pathToFileURL(path.join(ROOT, "packages/cli/src/run.ts")).href;

const PRELUDE = `
import { spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
const CLI = ${JSON.stringify(CLI)};
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-cli-")));
const repo = path.join(base, "repo");
mkdirSync(repo, { recursive: true });
function put(file, text) { mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, text); return file; }
// The built CLI with HOME at an empty folder; stdout and stderr as bytes decoded to text.
function cli(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: base, env: { PATH: process.env.PATH, HOME: base }, encoding: "utf8", timeout: 20000, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}
const cleanup = () => rmSync(base, { recursive: true, force: true });
`;

// What must never reach a terminal raw: C0 controls but tab and newline, DEL, C1, line separators, bidi controls.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("skillctx CLI under hostile input (separate process)", () => {
  it("terminal escape sequences in names, descriptions, bodies, paths and messages never reach the terminal raw, in text or JSON (< 30 s, < 300 MB)", async () => {
    interface Out {
      runs: Array<{ args: string; code: number | null; stdout: string; stderr: string }>;
      jsonDescription: string;
      evil: string;
    }
    const result = await runIsolated<Out>(
      `${PRELUDE}
export default async () => {
  // ESC [31m (colour), OSC 0 (window title) ended by BEL, 8-bit CSI, a right-to-left override, CR, backspace.
  const evil = "\\u001b[31mred\\u001b[0m \\u001b]0;pwned\\u0007 \\u009b2J \\u202eevil\\u202c \\r over \\b";
  const yaml = JSON.stringify(evil); // a double-quoted YAML scalar with the same escapes
  put(path.join(repo, ".agents/skills/colour/SKILL.md"), "---\\nname: colour\\ndescription: " + yaml + "\\nargument-hint: " + yaml + "\\n---\\nBody " + evil + "\\n");
  // A bad name: the parser reports it (with the name in the message) and uses the folder name.
  put(path.join(repo, ".agents/skills/badname/SKILL.md"), "---\\nname: " + yaml + "\\ndescription: d\\n---\\nx\\n");
  // A legacy skill whose file name carries an escape sequence.
  put(path.join(repo, ".openhands/microagents/\\u001b[2Jwipe.md"), "---\\nname: wipe\\ntriggers:\\n- wipe\\n---\\n" + evil + "\\n");
  put(path.join(repo, "AGENTS.md"), "# Rules\\n" + evil + "\\n");
  const runs = [];
  for (const args of [
    ["list", "--cwd", repo, "--no-user"],
    ["list", "--cwd", repo, "--no-user", "--json"],
    ["catalog", "--cwd", repo, "--no-user"],
    ["catalog", "--cwd", repo, "--no-user", "--json"],
    ["build", "--cwd", repo, "--no-user", "-m", "wipe " + evil, "-m", "colour"],
    ["build", "--cwd", repo, "--no-user", "-m", "wipe " + evil, "--json"],
    ["render", path.join(repo, ".agents/skills/colour/SKILL.md")],
    ["validate", path.join(repo, ".agents/skills")],
    ["list", "--cwd", repo + "/" + evil],
    ["frob" + evil],
  ]) runs.push({ args: args.join(" ").slice(0, 80), ...cli(args) });
  const json = JSON.parse(runs[1].stdout).data;
  cleanup();
  return { runs, jsonDescription: json.skills.find((s) => s.name === "colour").description, evil };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 30_000, mb: 300 }, "escape sequences");
    for (const run of value.runs) {
      expect(run.code, `${run.args}: ${run.stderr}`).not.toBeNull();
      expect(UNSAFE.test(run.stdout), `${run.args} stdout: ${JSON.stringify(run.stdout.match(UNSAFE))}`).toBe(false);
      expect(UNSAFE.test(run.stderr), `${run.args} stderr: ${JSON.stringify(run.stderr.match(UNSAFE))}`).toBe(false);
    }
    // Escaped, not dropped: the text shows what is there, and JSON parses back to the exact string.
    expect(value.runs[0]!.stdout).toContain("\\x1b[31mred");
    expect(value.jsonDescription).toBe(value.evil);
    expect(value.runs[8]!.code).toBe(2);
    expect(value.runs[9]!.code).toBe(2);
  }, 70_000);

  it("--cwd at a FIFO, a device or a file, and FIFOs as FILE, PATH or --skills: no hang, one line, exit 2 or a finding (< 20 s, < 300 MB)", async () => {
    interface Out {
      runs: Array<{ args: string; code: number | null; signal: string | null; stdout: string; stderr: string }>;
    }
    const result = await runIsolated<Out>(
      `${PRELUDE}
export default async () => {
  const fifo = path.join(base, "fifo");
  execFileSync("mkfifo", [fifo]);
  put(path.join(repo, "plain.txt"), "x");
  put(path.join(repo, ".agents/skills/ok/SKILL.md"), "---\\nname: ok\\ndescription: d\\n---\\nx\\n");
  const runs = [];
  for (const args of [
    ["build", "--cwd", fifo],
    ["list", "--cwd", "/dev/zero"],
    ["catalog", "--cwd", path.join(repo, "plain.txt")],
    ["render", fifo],
    ["render", "/dev/zero"],
    ["validate", fifo],
    ["list", "--cwd", repo, "--no-user", "--skills", fifo, "--json"],
  ]) runs.push({ args: args.join(" "), ...cli(args) });
  cleanup();
  return { runs };
};`,
      { timeoutMs: 60_000 },
    );
    const { runs } = expectBounded(result, { ms: 20_000, mb: 300 }, "FIFOs and devices");
    const [cwdFifo, cwdDevice, cwdFile, renderFifo, renderDevice, validateFifo, skillsFifo] = runs;
    for (const run of [cwdFifo!, cwdDevice!, cwdFile!]) {
      expect(run.code, run.args).toBe(2);
      expect(run.stderr, run.args).toMatch(/^skillctx \w+: --cwd .*: not a folder \(see skillctx \w+ --help\)\n$/);
      expect(run.stdout).toBe("");
    }
    for (const run of [renderFifo!, renderDevice!]) {
      expect(run.code, run.args).toBe(1);
      expect(run.stderr, run.args).toMatch(/error NOT_A_FILE/);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    expect(validateFifo!.signal).toBeNull();
    expect(validateFifo!.code).toBe(1);
    // A FIFO given as a skill source is reported; the repository's own skill still loads.
    expect(skillsFifo!.signal).toBeNull();
    // The --json envelope: the command's data, the diagnostics beside it (docs/cli-json.schema.json).
    const envelope = JSON.parse(skillsFifo!.stdout) as {
      data: { skills: Array<{ name: string }> };
      diagnostics: Array<{ code: string }>;
    };
    expect(envelope.data.skills.map((s) => s.name)).toEqual(["ok"]);
    expect(envelope.diagnostics.length).toBeGreaterThan(0);
  }, 70_000);

  it("huge --budget values are refused or honoured, never looped over; a tiny one still answers (< 20 s, < 300 MB)", async () => {
    interface Out {
      runs: Array<{ args: string; code: number | null; stdout: string; stderr: string }>;
    }
    const result = await runIsolated<Out>(
      `${PRELUDE}
export default async () => {
  for (let i = 0; i < 40; i++) put(path.join(repo, ".agents/skills/s" + i + "/SKILL.md"), "---\\nname: s" + i + "\\ndescription: Skill number " + i + " does things.\\n---\\nx\\n");
  const runs = [];
  for (const budget of ["9".repeat(400), "1e9", "18446744073709551616", "9007199254740991", "0", "1"]) {
    const args = ["catalog", "--cwd", repo, "--no-user", "--json", "--budget", budget];
    runs.push({ args: budget.slice(0, 30), ...cli(args) });
  }
  cleanup();
  return { runs };
};`,
      { timeoutMs: 60_000 },
    );
    const { runs } = expectBounded(result, { ms: 20_000, mb: 300 }, "budgets");
    const [huge, exponent, twoTo64, maxSafe, zero, one] = runs;
    for (const run of [huge!, exponent!, twoTo64!]) {
      expect(run.code, run.args).toBe(2);
      expect(run.stderr).toMatch(
        /^skillctx catalog: --budget must be a whole number of tokens up to 9007199254740991, got '/,
      );
      expect(run.stderr.length).toBeLessThan(700);
    }
    expect(maxSafe!.code).toBe(0);
    expect(JSON.parse(maxSafe!.stdout).data).toMatchObject({ level: "full", budgetTokens: 9007199254740991 });
    for (const run of [zero!, one!]) {
      expect(run.code, `${run.args}: ${run.stderr}`).toBe(0);
      const json = JSON.parse(run.stdout).data as { level: string; included: string[]; omitted: string[] };
      expect(json.included.length + json.omitted.length).toBe(40);
    }
  }, 70_000);

  it("a 1 MB description and 2,000 skills: list prints bounded lines, in process (< 30 s, < 500 MB)", async () => {
    interface Out {
      code: number;
      rows: number;
      huge: boolean;
      hugeReported: string[];
      longest: number;
      jsonBytes: number;
    }
    const result = await runIsolated<Out>(
      `${PRELUDE}
import { runCli } from ${JSON.stringify(RUN_CLI)};
export default async () => {
  const skills = path.join(repo, ".agents/skills");
  put(path.join(skills, "huge/SKILL.md"), "---\\nname: huge\\ndescription: " + "word ".repeat(200000) + "\\n---\\nx\\n");
  for (let i = 0; i < 2000; i++) put(path.join(skills, "s" + i, "SKILL.md"), "---\\nname: s" + i + "\\ndescription: Skill " + i + "\\n---\\nBody " + i + "\\n");
  let out = "";
  let err = "";
  const io = { stdout: { write: (t) => { out += t; } }, stderr: { write: (t) => { err += t; } } };
  const code = await runCli(["list", "--cwd", repo, "--no-user"], io);
  const lines = out.split("\\n");
  let json = "";
  await runCli(["list", "--cwd", repo, "--no-user", "--json"], { stdout: { write: (t) => { json += t; } }, stderr: { write: () => {} } });
  cleanup();
  return {
    code,
    // A column the same on every row is left out (issue 37): a row may be the name alone.
    rows: lines.filter((l) => /^s\\d+(?: |$)/.test(l)).length,
    huge: lines.some((l) => l.startsWith("huge ")),
    hugeReported: err.split("\\n").filter((l) => l.includes("huge/SKILL.md")).map((l) => l.slice(0, 300)),
    longest: Math.max(...lines.map((l) => l.length), ...err.split("\\n").map((l) => l.length)),
    jsonBytes: json.length,
  };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 30_000, mb: 500 }, "2,000 skills");
    expect(value.rows).toBe(2000);
    // The huge skill is listed with a cut description, or left out with a finding that says why: never silently.
    expect(value.huge || value.hugeReported.length > 0, JSON.stringify(value.hugeReported)).toBe(true);
    expect(value.longest).toBeLessThan(2_000);
    expect(value.jsonBytes).toBeGreaterThan(0);
  }, 70_000);
});
