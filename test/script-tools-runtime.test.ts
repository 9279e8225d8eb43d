// Typed script tools: one reader call per folder, memoised by file stats; PEP 723 scripts through
// `uv run --script` (a stand-in uv that records its argv and runs python3; the real uv when installed);
// run_skill_script's PYTHONPATH, PEP 723 rule and script.finished event.
import { existsSync } from "node:fs";
import { chmod, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentContext } from "skillctx";
import type { SkillctxEvent } from "../packages/engine/src/events/types.js";
import { findUv } from "../packages/engine/src/code/python/launch.js";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { call, scriptSkill, toolsOf } from "./helpers/script-skills.js";
import { describeWithTool, itWithTool } from "./helpers/tools-present.js";

const tempDir = useTempDirs("script-tools-rt");
const realUv = findUv();
const originalPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = originalPath;
});

const PEP723 = `# /// script
# requires-python = ">=3.8"
# dependencies = [
#   "requests<3",  # a comment
#   'rich',
# ]
# ///
"""Adds numbers."""


def main(a: int, b: int = 2) -> int:
    return a + b
`;

/** A python3 wrapper that logs each call's first argument and argument count, for counting reader calls. */
async function countingPython(dir: string): Promise<{ python: string; calls: () => Promise<string[]> }> {
  const log = path.join(dir, "python-calls.log");
  const python = await put(dir, "bin/python-counting", `#!/bin/sh\necho "$1 $#" >> '${log}'\nexec python3 "$@"\n`);
  await chmod(python, 0o755);
  await writeFile(log, "");
  return { python, calls: async () => (await readFile(log, "utf8")).split("\n").filter((line) => line !== "") };
}

/** A stand-in `uv` on PATH: records its arguments, then runs what `uv run --quiet --script <file> ...` would with python3. */
async function fakeUv(dir: string): Promise<{ argv: () => Promise<string[]> }> {
  const log = path.join(dir, "uv-argv.log");
  const uv = await put(dir, "fake-bin/uv", `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\nshift 3\nexec python3 "$@"\n`);
  await chmod(uv, 0o755);
  process.env.PATH = `${path.dirname(uv)}${path.delimiter}${originalPath ?? ""}`;
  return { argv: async () => (await readFile(log, "utf8")).split("\n").slice(0, -1) };
}

describe("signature reading is memoised", () => {
  itWithTool("python3")(
    "reads all scripts of a folder in one interpreter call, then again only the changed file",
    async () => {
      const root = await tempDir();
      const skill = await scriptSkill(root, "memo", {
        "scripts/one.py": "def main(x: int) -> int:\n    return x\n",
        "scripts/two.py": "def main(y: str) -> str:\n    return y\n",
        "scripts/three.py": "X = 1\n",
      });
      const { python, calls } = await countingPython(root);
      const first = await toolsOf(skill, { python });
      expect(first.tools.map((t) => t.name)).toEqual(["one", "two"]);
      expect(await calls()).toEqual(["-I 11"]); // -I -B -c <source> <max> + 3 × (path, digest)
      const second = await toolsOf(skill, { python });
      expect(second.tools.map((t) => t.name)).toEqual(["one", "two"]);
      expect(second.diagnostics).toEqual(first.diagnostics);
      expect(await calls()).toHaveLength(1);

      const changed = path.join(root, "memo/scripts/two.py");
      await writeFile(changed, "def main(y: str, z: bool = True) -> str:\n    return y\n");
      await utimes(changed, new Date(), new Date(Date.now() + 5_000));
      const third = await toolsOf(skill, { python });
      expect(await calls()).toEqual(["-I 11", "-I 7"]);
      expect(third.tool("two").inputSchema.properties).toEqual({
        y: { type: "string" },
        z: { type: "boolean", default: true },
      });
      // The call goes through the same interpreter.
      expect(await call(third.tool("one"), { x: 5 }, undefined)).toEqual({ content: "5" });
      expect((await calls())[2]).toMatch(/^-c /);
    },
  );

  itWithTool("python3")("concurrent derivations over the same folder share one reader call", async () => {
    const root = await tempDir();
    const skill = await scriptSkill(root, "shared", { "scripts/one.py": "def main(x: int) -> int:\n    return x\n" });
    const { python, calls } = await countingPython(root);
    const both = await Promise.all([toolsOf(skill, { python }), toolsOf(skill, { python })]);
    expect(both.map((d) => d.tools.map((t) => t.name))).toEqual([["one"], ["one"]]);
    expect(await calls()).toEqual(["-I 7"]);
  });

  it("a missing interpreter is one diagnostic and no tools", async () => {
    const skill = await scriptSkill(await tempDir(), "nopython", {
      "scripts/one.py": "def main(x: int) -> int:\n    return x\n",
    });
    const { tools, diagnostics } = await toolsOf(skill, { python: "/nonexistent/python3" });
    expect(tools).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "SCRIPT_SIGNATURES_UNREAD",
        message: expect.stringContaining("could not start"),
      }),
    ]);
  });
});

describeWithTool("python3")("PEP 723 inline metadata", () => {
  it("without uv on PATH: a diagnostic names the dependencies, and the call runs with python3", async () => {
    process.env.PATH = pathWithoutUv();
    expect(findUv()).toBeUndefined();
    const skill = await scriptSkill(await tempDir(), "inline", { "scripts/add.py": PEP723 });
    const { tool, diagnostics } = await toolsOf(skill);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "SCRIPT_DEPENDENCIES_UNMANAGED",
        severity: "warning",
        line: 1,
        message: expect.stringContaining("dependencies that may be missing: requests<3, rich"),
      }),
    ]);
    expect(tool("add").description).toBe("Adds numbers.");
    expect(await call(tool("add"), { a: 1 })).toEqual({ content: "3" });
  });

  it("with uv on PATH: the call runs as `uv run --quiet --script <runner>`, the runner starting with the script's block (stand-in uv)", async () => {
    const root = await tempDir();
    const uv = await fakeUv(root);
    const skill = await scriptSkill(root, "inline", { "scripts/add.py": PEP723 });
    const { tool, diagnostics } = await toolsOf(skill);
    expect(diagnostics).toEqual([]);
    expect(await call(tool("add"), { a: 40 })).toEqual({ content: "42" });
    const argv = await uv.argv();
    expect(argv.slice(0, 3)).toEqual(["run", "--quiet", "--script"]);
    const runner = await readFile(argv[3]!, "utf8");
    expect(runner.startsWith(PEP723.slice(0, PEP723.indexOf("# ///\n") + "# ///".length))).toBe(true);
    expect(argv[4]).toBe(path.join(root, "inline/scripts/add.py"));
    expect(JSON.parse(argv[6]!)).toEqual({ a: 40 });
  });

  // The real uv is not installed on every machine (it is not here: PyPI is out of reach), so this test runs the
  // script through whatever the machine has and checks what skillctx promises there: the real uv when it is on
  // PATH; otherwise python3 and a diagnostic naming the inline dependencies. Both branches assert; neither skips.
  it("a PEP 723 script on this machine's PATH: through the real uv when installed, else python3 with a diagnostic", async () => {
    const source = PEP723.replace(/# dependencies = \[[^\]]*\]\n/s, "# dependencies = []\n")
      .replace(/# {3}.*\n/g, "")
      .replace("# ]\n", "");
    const skill = await scriptSkill(await tempDir(), "uvreal", { "scripts/add.py": source });
    const { tool, diagnostics } = await toolsOf(skill, { timeoutMs: 120_000 });
    if (realUv === undefined) {
      console.info(
        "uv is not on PATH: the PEP 723 script ran through python3 (the stand-in uv test above checks the uv command line)",
      );
      expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([["SCRIPT_DEPENDENCIES_UNMANAGED", "warning"]]);
      expect(diagnostics[0]!.message).toMatch(/uv is not on PATH, so it runs with python3/);
    } else {
      expect(diagnostics).toEqual([]);
    }
    expect(await call(tool("add"), { a: 1, b: 1 })).toEqual({ content: "2" });
  }, 180_000);
});

describeWithTool("python3")("run_skill_script", () => {
  async function context(files: Record<string, string>) {
    const root = await tempDir();
    for (const [relative, text] of Object.entries(files)) await put(root, relative, text);
    await put(root, "tool/SKILL.md", "---\nname: tool\ndescription: A skill with scripts.\n---\nRun them.\n");
    const events: SkillctxEvent[] = [];
    const ctx = await AgentContext.create({
      cwd: root,
      skills: [root],
      guidance: false,
      telemetry: {
        onEvent: (event) => void events.push(event),
      },
    });
    return { ctx, events, root };
  }

  it("gives the skill folder on PYTHONPATH and emits script.finished", async () => {
    const { ctx, events } = await context({
      "tool/lib/shared.py": "VALUE = 'shared'\n",
      "tool/scripts/helper.py": "NAME = 'helper'\n",
      "tool/scripts/show.py":
        "import sys\nimport helper\nfrom lib import shared\nprint(helper.NAME, shared.VALUE, sys.argv[1:])\n",
    });
    try {
      const result = await ctx.callTool("run_skill_script", {
        name: "tool",
        script: "show.py",
        args: ["a b", "$(echo no)"],
      });
      expect(result).toEqual({ content: "helper shared ['a b', '$(echo no)']" });
      expect(events.filter((e) => e.type === "script.finished")).toEqual([
        {
          type: "script.finished",
          skill: "tool",
          script: "scripts/show.py",
          exitCode: 0,
          durationMs: expect.any(Number),
          bytes: 36,
          truncated: false,
          timedOut: false,
        },
      ]);
    } finally {
      await ctx.close();
    }
  });

  it("a PEP 723 script: python3 and a diagnostic without uv; `uv run --quiet --script <script> args` with uv", async () => {
    const script = "# /// script\n# dependencies = ['numpy']\n# ///\nimport sys\nprint('args', sys.argv[1:])\n";
    process.env.PATH = pathWithoutUv();
    const { ctx, root } = await context({ "tool/scripts/inline.py": script });
    try {
      expect(await ctx.callTool("run_skill_script", { name: "tool", script: "inline.py", args: ["x"] })).toEqual({
        content: "args ['x']",
      });
      const step = await ctx.buildContext([{ role: "user", content: "hello" }]);
      expect(step.diagnostics).toContainEqual(
        expect.objectContaining({ code: "SCRIPT_DEPENDENCIES_UNMANAGED", message: expect.stringContaining("numpy") }),
      );
      const uv = await fakeUv(root);
      expect(await ctx.callTool("run_skill_script", { name: "tool", script: "inline.py", args: ["y"] })).toEqual({
        content: "args ['y']",
      });
      expect(await uv.argv()).toEqual(["run", "--quiet", "--script", path.join(root, "tool/scripts/inline.py"), "y"]);
    } finally {
      await ctx.close();
    }
  });
});

// The host's PATH without the folders that hold a `uv`.
function pathWithoutUv(): string {
  return (originalPath ?? "")
    .split(path.delimiter)
    .filter((dir) => !existsSync(path.join(dir, "uv")))
    .join(path.delimiter);
}
