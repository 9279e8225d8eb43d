// Needs python3: every test is inside describeWithTool("python3"), skipped with a one-line note where python3
// is not on PATH (test/setup/tools.ts); uv is never required.
// Hostile Python scripts against typed script tools, each run in a separate process (runIsolated): a
// script's code must never run while its signature is read, hostile annotations and huge files stay
// bounded, a flooding or endless main() is stopped, and argument values never reach a shell. Bounds
// are generous and stated in each test's name.
import { expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";
import { describeWithTool } from "../helpers/tools-present.js";

/** Helpers every isolated script starts with: skill folders on disk, tools of a skill, calls, /proc look-ups. */
const PRELUDE = `
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadSkills } from "@skillctx/core";
import { scriptToolsOf } from "@skillctx/engine/code/script-tools";
const events = [];
const sink = { wants: () => true, emit: (event) => events.push(event) };
function tempRoot() {
  return mkdtempSync(join(tmpdir(), "skillctx-adv-script-"));
}
async function skillWith(root, name, files, scope = "user") {
  const write = (relative, text) => {
    mkdirSync(dirname(join(root, name, relative)), { recursive: true });
    writeFileSync(join(root, name, relative), text);
  };
  write("SKILL.md", "---\\nname: " + name + "\\ndescription: Hostile scripts.\\n---\\nBody.\\n");
  for (const [relative, text] of Object.entries(files)) write(relative, text);
  const loaded = await loadSkills([root], { scope });
  return loaded.skills.find((s) => s.name === name);
}
async function toolsOf(skill, options = {}) {
  const started = performance.now();
  const derived = await scriptToolsOf(skill, { trust: undefined, events: sink, ...options });
  return { ...derived, ms: performance.now() - started };
}
async function run(tool, args) {
  const started = performance.now();
  const { result } = await tool.run(args, { signal: new AbortController().signal, callId: "c1", readState: () => undefined });
  return { result, ms: performance.now() - started };
}
// Whether a process still runs (a zombie waiting to be reaped counts as gone).
function running(pid) {
  try {
    const stat = readFileSync("/proc/" + pid + "/stat", "utf8");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}
const codes = (diagnostics) => diagnostics.map((d) => d.code + " " + (d.path ?? "").replace(/^.*\\//, ""));
`;

const isolated = <T>(source: string, seconds: number) =>
  runIsolated<T>(PRELUDE + source, { timeoutMs: seconds * 1000 + 20_000 });

describeWithTool("python3")("typed script tools against hostile scripts (separate process)", () => {
  it("nothing of a script runs while its signature is read: top level, annotations, defaults, decorators, and look-alike stdlib modules beside it (< 20 s, < 300 MB)", async () => {
    interface Out {
      flags: string[];
      tools: string[];
      codes: string[];
      unsupported: string;
    }
    const run = await isolated<Out>(
      `
export default async function () {
  const root = tempRoot();
  const flag = (n) => join(root, "flag-" + n);
  const touch = (n) => "open(" + JSON.stringify(flag(n)) + ", 'w').write('ran')";
  try {
    const skill = await skillWith(root, "hostile", {
      "scripts/top.py": touch(1) + "\\nimport os\\nos.system('touch " + flag(2) + "')\\n\\ndef main(x: int) -> int:\\n    return x\\n",
      "scripts/annotated.py": "def main(x: " + touch(3) + " or int, y: int = " + touch(4) + ") -> " + touch(5) + ":\\n    return 1\\n",
      "scripts/decorated.py": "@(lambda f: (" + touch(6) + ", f)[1])\\ndef main(x: int) -> int:\\n    return x\\n",
      "scripts/classy.py": "class Meta(type):\\n    def __new__(m, *a):\\n        " + touch(7) + "\\n        return type.__new__(m, *a)\\n\\nclass P(metaclass=Meta):\\n    pass\\n\\ndef main(x: int = P) -> int:\\n    return x\\n",
      // Modules the reader imports, planted where an unisolated interpreter would look first.
      "ast.py": touch(8) + "\\n",
      "json.py": touch(9) + "\\n",
      "scripts/ast.py": touch(10) + "\\n",
      "scripts/hashlib.py": touch(11) + "\\n",
      "sitecustomize.py": touch(12) + "\\n",
      "scripts/sitecustomize.py": touch(13) + "\\n",
    });
    const derived = await toolsOf(skill);
    const flags = [];
    for (let n = 1; n <= 13; n++) if (existsSync(flag(n))) flags.push("flag-" + n);
    const unsupported = derived.diagnostics.find((d) => d.path?.endsWith("annotated.py"))?.message ?? "";
    return { flags, tools: derived.tools.map((t) => t.name).sort(), codes: codes(derived.diagnostics).sort(), unsupported };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
`,
      20,
    );
    const out = expectBounded(run, { ms: 20_000, mb: 300 }, "no execution while reading");
    expect(out.flags).toEqual([]);
    expect(out.tools).toEqual(["classy", "top"]);
    expect(out.codes).toEqual([
      "SCRIPT_NO_MAIN ast.py",
      "SCRIPT_NO_MAIN hashlib.py",
      "SCRIPT_NO_MAIN sitecustomize.py",
      "SCRIPT_UNSUPPORTED_SIGNATURE decorated.py",
      "SCRIPT_UNSUPPORTED_TYPE annotated.py",
    ]);
    expect(out.unsupported).toContain("parameter x: open(");
  });

  it("hostile annotations, deep nesting, giant docstrings, 200 scripts and a 50 MB file stay bounded (< 30 s, < 400 MB)", async () => {
    interface Out {
      codes: string[];
      messages: Record<string, string>;
      tools: { name: string; description: string; schema: string }[];
      ms: number;
      again: number;
    }
    const run = await isolated<Out>(
      `
export default async function () {
  const root = tempRoot();
  try {
    const nested = (n) => "list[".repeat(n) + "int" + "]".repeat(n);
    const files = {
      "scripts/deep150.py": "def main(x: " + nested(150) + ") -> int:\\n    return 1\\n",
      "scripts/deep1000.py": "def main(x: " + nested(1000) + ") -> int:\\n    return 1\\n",
      "scripts/parens.py": "X = " + "(".repeat(100000) + "1" + ")".repeat(100000) + "\\ndef main(x: int) -> int:\\n    return 1\\n",
      "scripts/chain.py": "def main(x: " + Array(50000).fill("int").join(" | ") + ") -> int:\\n    return 1\\n",
      "scripts/literal.py": "from typing import Literal\\ndef main(x: Literal[" + Array.from({ length: 100000 }, (_, i) => i).join(", ") + "]) -> int:\\n    return 1\\n",
      "scripts/astrann.py": "def main(x: " + JSON.stringify("list[" + "'list[".repeat(30)) + ") -> int:\\n    return 1\\n",
      "scripts/bsum.py": "X = " + Array(200000).fill("1").join(" + ") + "\\ndef main(x: int) -> int:\\n    return 1\\n",
      "scripts/doc.py": "def main(x: int) -> int:\\n    \\"\\"\\"" + "Summary with \\"}]} JSON-looking text. ".repeat(300) + "\\n\\n    Args:\\n        x: " + "long ".repeat(500) + "\\n    \\"\\"\\"\\n    return x\\n",
      "scripts/params.py": "def main(" + Array.from({ length: 5000 }, (_, i) => "p" + i + ": int").join(", ") + ") -> int:\\n    return 1\\n",
      "scripts/huge.py": "def main(x: int) -> int:\\n    return x\\n" + "# padding padding padding padding\\n".repeat(1_600_000),
    };
    for (let i = 0; i < 190; i++) files["scripts/s" + String(i).padStart(3, "0") + ".py"] = "def main(x: int) -> int:\\n    return " + i + "\\n";
    const skill = await skillWith(root, "wild", files);
    const derived = await toolsOf(skill, { timeoutMs: 1000 });
    const again = await toolsOf(skill);
    const messages = {};
    for (const d of derived.diagnostics) messages[d.code + " " + (d.path ?? "").replace(/^.*\\//, "")] = d.message.slice(0, 1000);
    const tools = derived.tools.filter((t) => !/^s\\d+$/.test(t.name)).map((t) => ({ name: t.name, description: t.description, schema: JSON.stringify(t.inputSchema).slice(0, 2000) }));
    return { codes: codes(derived.diagnostics).sort(), messages, tools, ms: derived.ms, again: again.ms };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
`,
      30,
    );
    const out = expectBounded(run, { ms: 30_000, mb: 400 }, "hostile annotations");
    // 200 candidate scripts: the first 64 in code-point order are read (astrann, bsum, chain, deep*, doc, huge, literal, params, parens, s000…).
    // Python's own parser refuses 1,000 nested brackets and a 50,000-term chain; the reader reports it per file.
    expect(out.codes).toEqual([
      "SCRIPT_LIMIT scripts",
      "SCRIPT_PARSE_FAILED bsum.py",
      "SCRIPT_PARSE_FAILED chain.py",
      "SCRIPT_PARSE_FAILED deep1000.py",
      "SCRIPT_PARSE_FAILED parens.py",
      "SCRIPT_READ_FAILED huge.py",
      "SCRIPT_UNSUPPORTED_SIGNATURE params.py",
      "SCRIPT_UNSUPPORTED_TYPE astrann.py",
      "SCRIPT_UNSUPPORTED_TYPE deep150.py",
      "SCRIPT_UNSUPPORTED_TYPE literal.py",
    ]);
    expect(out.messages["SCRIPT_READ_FAILED huge.py"]).toContain("run_skill_script");
    expect(out.messages["SCRIPT_UNSUPPORTED_TYPE deep150.py"]).toContain("nested more than 16 levels deep");
    expect(out.messages["SCRIPT_UNSUPPORTED_TYPE literal.py"]).toContain("more than 64");
    expect(out.messages["SCRIPT_PARSE_FAILED chain.py"]).toContain("RecursionError");
    expect(out.messages["SCRIPT_PARSE_FAILED parens.py"]).toContain("too many nested parentheses");
    const doc = out.tools.find((t) => t.name === "doc");
    expect(doc?.description.length).toBeLessThanOrEqual(1024);
    expect(doc?.description.startsWith('Summary with "}]} JSON-looking text.')).toBe(true);
    expect(JSON.parse(doc!.schema).properties.x.description.length).toBeLessThanOrEqual(512);
    console.info(
      `hostile annotations: first read ${Math.round(out.ms)} ms, memoised ${Math.round(out.again)} ms, peak ${Math.round(run.maxRssMb)} MB`,
    );
  });

  it("a main() printing 100 MB is capped and stopped; one printing 100 MB to stderr is capped; a main() that never returns is killed with its children (< 30 s, < 300 MB)", async () => {
    interface Out {
      flood: { isError: boolean; bytes: number; ms: number; tail: string };
      stderr: { isError: boolean; bytes: number; ms: number; tail: string };
      endless: { isError: boolean; ms: number; text: string };
      pids: number;
      left: number[];
      finished: { truncated: boolean; timedOut: boolean }[];
    }
    const run = await isolated<Out>(
      `
export default async function () {
  const root = tempRoot();
  try {
    const skill = await skillWith(root, "floods", {
      "scripts/flood.py": "import sys\\n\\ndef main(mb: int) -> str:\\n    block = 'z' * (1024 * 1024)\\n    for _ in range(mb):\\n        sys.stdout.write(block)\\n    return 'done'\\n",
      "scripts/noisy.py": "import sys\\n\\ndef main(mb: int) -> str:\\n    block = 'e' * (1024 * 1024)\\n    for _ in range(mb):\\n        sys.stderr.write(block)\\n    return 'done'\\n",
      "scripts/endless.py": "import os, subprocess, time\\n\\ndef main(pids: str) -> str:\\n    child = subprocess.Popen(['sleep', '300'])\\n    open(pids, 'w').write('%d %d' % (os.getpid(), child.pid))\\n    while True:\\n        time.sleep(0.05)\\n",
    });
    const { tools } = await toolsOf(skill, { timeoutMs: 2000 });
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const flood = await run(byName.flood, { mb: 100 });
    const noisy = await run(byName.noisy, { mb: 100 });
    const pidFile = join(root, "pids.txt");
    const endless = await run(byName.endless, { pids: pidFile });
    const pids = readFileSync(pidFile, "utf8").split(" ").map(Number);
    const shape = (r) => ({ isError: r.result.isError === true, bytes: Buffer.byteLength(r.result.content), ms: r.ms, tail: r.result.content.slice(-200) });
    return {
      flood: shape(flood),
      stderr: shape(noisy),
      endless: { isError: endless.result.isError === true, ms: endless.ms, text: endless.result.content },
      pids: pids.length,
      left: pids.filter(running),
      finished: events.filter((e) => e.type === "script.finished").map((e) => ({ truncated: e.truncated, timedOut: e.timedOut })),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
`,
      30,
    );
    const out = expectBounded(run, { ms: 30_000, mb: 300 }, "floods");
    expect(out.flood.isError).toBe(true);
    expect(out.flood.bytes).toBeLessThan(60_000);
    expect(out.flood.tail).toContain("[output cut at 51200 bytes; scripts/flood.py was stopped]");
    expect(out.stderr.bytes).toBeLessThan(60_000);
    expect(out.stderr.tail).toContain("[stderr cut at 51200 bytes]");
    expect(out.endless.isError).toBe(true);
    expect(out.endless.text).toContain("timed out after 2000 ms");
    expect(out.endless.ms).toBeLessThan(2000 + 5000);
    expect(out.pids).toBe(2);
    expect(out.left).toEqual([]);
    expect(out.finished).toEqual([
      { truncated: true, timedOut: false },
      { truncated: true, timedOut: false },
      { truncated: false, timedOut: true },
    ]);
  });

  it("argument values reach main() byte for byte and never a shell; symlinks out of the folder and FIFOs are not read (< 20 s, < 300 MB)", async () => {
    interface Out {
      echoed: unknown;
      sent: unknown;
      flags: string[];
      keyword: { isError: boolean; text: string };
      tools: string[];
      codes: string[];
      outsideRead: boolean;
      protoKept: boolean;
    }
    const run = await isolated<Out>(
      `
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
export default async function () {
  const root = tempRoot();
  const flag = (n) => join(root, "flag-" + n);
  try {
    writeFileSync(join(root, "outside.py"), "def main(secret: int) -> int:\\n    return secret\\n");
    const skill = await skillWith(root, "inject", {
      "scripts/echo.py": "def main(text: str, items: list[str], extra: dict[str, str]) -> dict:\\n    return {'text': text, 'items': items, 'extra': extra}\\n",
    });
    symlinkSync(join(root, "outside.py"), join(root, "inject/scripts/leak.py"));
    execFileSync("mkfifo", [join(root, "inject/scripts/pipe.py")]);
    const derived = await toolsOf(skill);
    const echo = derived.tools.find((t) => t.name === "echo");
    const sent = {
      text: "; touch " + flag(1) + "; echo $(touch " + flag(2) + ") \`touch " + flag(3) + "\` && rm -rf /nonexistent' \\" \\u0000 \\n\\r\\t \\u2028 é 😀",
      items: ["--help", "-c", "import os; os.system('touch " + flag(4) + "')", "$HOME", "%s%n"],
      extra: Object.assign(JSON.parse('{"__proto__": "x"}'), { "key with spaces": "|| touch " + flag(5), "": "" }),
    };
    const { result } = await run(echo, sent);
    const keyword = await run(echo, { text: "a", items: [], extra: {}, "class": 1 });
    const flags = [];
    for (let n = 1; n <= 5; n++) if (existsSync(flag(n))) flags.push("flag-" + n);
    return {
      echoed: JSON.parse(result.content),
      sent: JSON.parse(JSON.stringify(sent)),
      protoKept: Object.hasOwn(JSON.parse(result.content).extra, "__proto__"),
      flags,
      keyword: { isError: keyword.result.isError === true, text: keyword.result.content.slice(-300) },
      tools: derived.tools.map((t) => t.name),
      codes: codes(derived.diagnostics),
      outsideRead: derived.tools.some((t) => t.name === "leak"),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
`,
      20,
    );
    const out = expectBounded(run, { ms: 20_000, mb: 300 }, "injection");
    expect(out.echoed).toEqual(out.sent);
    expect(out.protoKept).toBe(true);
    expect(out.flags).toEqual([]);
    expect(out.keyword.isError).toBe(true);
    expect(out.keyword.text).toContain("Invalid arguments");
    expect(out.tools).toEqual(["echo"]);
    expect(out.outsideRead).toBe(false);
    expect(out.codes).toContainEqual(expect.stringMatching(/^PATH_OUTSIDE_ROOT /));
  });
});
