// Typed script tools: JSON Schema from main()'s signature and docstring (real python3 reads it with `ast`),
// and calls of main(**args) in a child python3.
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { call, recordingSink, scriptSkill, toolsOf } from "./helpers/script-skills.js";
import { describeWithTool, itWithTool } from "./helpers/tools-present.js";

const tempDir = useTempDirs("script-tools");

const TYPED = `"""Module docs: not used when main() has its own."""
from typing import Literal, Optional


def main(
    name: str,
    count: int,
    ratio: float = 0.5,
    loud: bool = False,
    tags: list[str] | None = None,
    weights: dict[str, float] = {},
    mode: Literal["fast", "slow"] = "fast",
    note: Optional[str] = None,
    pair: tuple[int, str] = (1, "a"),
    rest: "tuple[int, ...]" = (),
    *,
    when: int | str = 3,
) -> dict:
    """Greets someone a number of times.

    Longer text that is not the summary.

    Args:
        name: Who to greet.
        count (int): How many times,
            at least one.
        ratio: Share of loud greetings.

    Returns:
        A summary.
    """
    return {"name": name, "count": count, "pair": [type(pair).__name__, list(pair)], "rest": type(rest).__name__}
`;

describe("schemas from main()", () => {
  itWithTool("python3")(
    "maps str, int, float, bool, list, dict, Optional, Literal, tuple, unions and defaults; Google docstring descriptions",
    async () => {
      const skill = await scriptSkill(await tempDir(), "typed", { "scripts/greet.py": TYPED });
      const { tools, diagnostics, tool } = await toolsOf(skill);
      expect(diagnostics).toEqual([]);
      expect(tools.map((t) => [t.name, t.localName, t.kind])).toEqual([["greet", "greet", "script"]]);
      const greet = tool("greet");
      expect(greet.description).toBe("Greets someone a number of times.");
      expect(greet.inputSchema).toEqual({
        type: "object",
        additionalProperties: false,
        required: ["name", "count"],
        properties: {
          name: { type: "string", description: "Who to greet." },
          count: { type: "integer", description: "How many times, at least one." },
          ratio: { type: "number", default: 0.5, description: "Share of loud greetings." },
          loud: { type: "boolean", default: false },
          tags: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }], default: null },
          weights: { type: "object", additionalProperties: { type: "number" }, default: {} },
          mode: { enum: ["fast", "slow"], type: "string", default: "fast" },
          note: { type: ["string", "null"], default: null },
          pair: {
            type: "array",
            prefixItems: [{ type: "integer" }, { type: "string" }],
            minItems: 2,
            maxItems: 2,
            items: false,
            default: [1, "a"],
          },
          rest: { type: "array", items: { type: "integer" }, default: [] },
          when: { type: ["integer", "string"], default: 3 },
        },
      });
    },
  );

  itWithTool("python3")(
    "reads NumPy and reST docstrings, and falls back to the module docstring for the description",
    async () => {
      const root = await tempDir();
      const numpy = `def main(path: str, level: int = 1, a: int = 0, b: int = 0):
    """Compress a file.

    Parameters
    ----------
    path : str
        The file to compress.
    level : int, optional
        Compression level,
        from 1 to 9.
    a, b : int
        Two numbers.

    Returns
    -------
    str
    """
    return path
`;
      const rest = `"""Counts words in a text."""


def main(text: str, limit: "int | None" = None) -> int:
    """
    :param text: The text to count.
    :param int limit: Stop after this
        many words.
    :returns: the count
    """
    return len(text.split())
`;
      const skill = await scriptSkill(root, "docs", { "scripts/compress.py": numpy, "scripts/count.py": rest });
      const { diagnostics, tool } = await toolsOf(skill);
      expect(diagnostics).toEqual([]);
      expect(tool("compress").description).toBe("Compress a file.");
      expect(tool("compress").inputSchema.properties).toEqual({
        path: { type: "string", description: "The file to compress." },
        level: { type: "integer", default: 1, description: "Compression level, from 1 to 9." },
        a: { type: "integer", default: 0, description: "Two numbers." },
        b: { type: "integer", default: 0, description: "Two numbers." },
      });
      expect(tool("count").description).toBe("Counts words in a text.");
      expect(tool("count").inputSchema.properties).toEqual({
        text: { type: "string", description: "The text to count." },
        limit: { type: ["integer", "null"], default: null, description: "Stop after this many words." },
      });
    },
  );

  itWithTool("python3")(
    "takes Annotated descriptions, typing. prefixes, Any, bare containers, non-literal defaults and None defaults of plain types",
    async () => {
      const source = `import typing
from typing import Annotated, Any
import os


def main(
    a: Annotated[int, "An integer with a note."],
    b: typing.List[typing.Dict[str, typing.Any]],
    c: Any,
    d: list = None,
    e: dict = {"k": [1, 2]},
    f: str = os.getcwd(),
    g: int = None,
) -> None:
    """Mixed bag."""
`;
      const skill = await scriptSkill(await tempDir(), "mixed", { "scripts/mixed.py": source });
      const { diagnostics, tool } = await toolsOf(skill);
      expect(diagnostics).toEqual([]);
      expect(tool("mixed").inputSchema).toMatchObject({
        required: ["a", "b", "c"],
        properties: {
          a: { type: "integer", description: "An integer with a note." },
          b: { type: "array", items: { type: "object", additionalProperties: {} } },
          c: {},
          d: { type: ["array", "null"], default: null },
          e: { type: "object", default: { k: [1, 2] } },
          f: { type: "string", description: "Default: os.getcwd()." },
          g: { type: ["integer", "null"], default: null },
        },
      });
      expect(tool("mixed").inputSchema.properties).not.toHaveProperty("f.default");
    },
  );

  itWithTool("python3").each([
    [
      "a custom class",
      "class Point:\n    pass\n\n\ndef main(p: Point) -> str:\n    return ''\n",
      "parameter p: Point has no JSON Schema",
    ],
    [
      "Callable",
      "from typing import Callable\n\n\ndef main(f: Callable[[int], str]) -> str:\n    return ''\n",
      "parameter f: Callable[[int], str]",
    ],
    [
      "a union with a class",
      "import pathlib\n\n\ndef main(p: str | pathlib.Path) -> str:\n    return ''\n",
      "parameter p: str | pathlib.Path: pathlib.Path has no JSON Schema",
    ],
    ["set", "def main(s: set[int]) -> str:\n    return ''\n", "parameter s: set[int]"],
    ["dict with int keys", "def main(d: dict[int, str]) -> str:\n    return ''\n", "JSON object keys are strings"],
    ["*args", "def main(x: int, *args: int) -> str:\n    return ''\n", "*args (extra positional arguments)"],
    [
      "**kwargs",
      "def main(x: int, **options: str) -> str:\n    return ''\n",
      "**options (arbitrary keyword arguments)",
    ],
    ["a positional-only parameter", "def main(x: int, /) -> str:\n    return ''\n", "x: int is positional-only"],
    ["a missing annotation", "def main(x, y: int) -> str:\n    return ''\n", "parameter x has no type annotation"],
    ["bytes", "def main(b: bytes) -> str:\n    return ''\n", "parameter b: bytes has no JSON Schema"],
  ])(
    "refuses %s with a diagnostic naming the parameter and type; the script stays on run_skill_script",
    async (_label, source, message) => {
      const skill = await scriptSkill(await tempDir(), "bad", { "scripts/bad.py": source });
      const { tools, diagnostics } = await toolsOf(skill);
      expect(tools).toEqual([]);
      expect(diagnostics).toEqual([
        expect.objectContaining({
          code: "SCRIPT_UNSUPPORTED_TYPE",
          severity: "warning",
          path: expect.stringMatching(/scripts\/bad\.py$/),
          line: expect.any(Number),
        }),
      ]);
      expect(diagnostics[0]!.message).toContain(message);
      expect(diagnostics[0]!.message).toContain("run_skill_script");
    },
  );

  itWithTool("python3")(
    "a script without main(), a command-line main(), a decorated main() and a syntax error: diagnostics, no tools, the good script still a tool",
    async () => {
      const skill = await scriptSkill(await tempDir(), "assorted", {
        "scripts/cli.py":
          "import argparse\n\n\ndef main():\n    argparse.ArgumentParser().parse_args()\n\n\nif __name__ == '__main__':\n    main()\n",
        "scripts/decorated.py":
          "import functools\n\n\n@functools.lru_cache()\ndef main(x: int) -> int:\n    return x\n",
        "scripts/helper.py": "VALUE = 41\n",
        "scripts/broken.py": "def main(x: int) -> int:\n    return (\n",
        "scripts/good.py": "def main(x: int) -> int:\n    return x + 1\n",
        "scripts/_private.py": "def main(x: int) -> int:\n    return x\n",
        "scripts/notes.txt": "not python\n",
      });
      const { tools, diagnostics } = await toolsOf(skill);
      expect(tools.map((t) => t.name)).toEqual(["good"]);
      const byFile = Object.fromEntries(diagnostics.map((d) => [d.path!.replace(/^.*\//, ""), [d.code, d.severity]]));
      expect(byFile).toEqual({
        "broken.py": ["SCRIPT_PARSE_FAILED", "warning"],
        "cli.py": ["SCRIPT_UNTYPED_MAIN", "info"],
        "decorated.py": ["SCRIPT_UNSUPPORTED_SIGNATURE", "warning"],
        "helper.py": ["SCRIPT_NO_MAIN", "info"],
      });
      expect(diagnostics.find((d) => d.code === "SCRIPT_PARSE_FAILED")).toMatchObject({ line: 2 });
      expect(diagnostics.find((d) => d.code === "SCRIPT_UNSUPPORTED_SIGNATURE")!.message).toContain(
        "@functools.lru_cache()",
      );
    },
  );

  it("a skill without scripts/ has no tools and no diagnostics; a file too large to read is reported", async () => {
    const root = await tempDir();
    const plain = await scriptSkill(root, "plain", { "references/a.md": "# A\n" });
    expect(await toolsOf(plain)).toMatchObject({ tools: [], diagnostics: [] });
    const big = await scriptSkill(root, "big", {
      "scripts/big.py": `def main(x: int) -> int:\n    return x\n${"# pad\n".repeat(200_000)}`,
    });
    const derived = await toolsOf(big);
    expect(derived.tools).toEqual([]);
    expect(derived.diagnostics).toEqual([expect.objectContaining({ code: "SCRIPT_READ_FAILED" })]);
    expect(derived.diagnostics[0]!.message).toContain("run_skill_script");
  });
});

describeWithTool("python3")("calling main(**args)", () => {
  it("returns JSON of the return value, tuples arrive as tuples, printed output comes first", async () => {
    const skill = await scriptSkill(await tempDir(), "typed", {
      "scripts/greet.py": TYPED.replace("    return {", '    print("hello", name)\n    return {'),
    });
    const { tool } = await toolsOf(skill);
    const result = await call(tool("greet"), { name: "Ada", count: 2, pair: [5, "x"], rest: [1, 2] });
    expect(result.isError).toBeUndefined();
    const [printed, value] = result.content.split("\n");
    expect(printed).toBe("hello Ada");
    expect(JSON.parse(value!)).toEqual({ name: "Ada", count: 2, pair: ["tuple", [5, "x"]], rest: "tuple" });
  });

  it("a string return is the text itself; None says so; non-JSON values become str(); async main() is awaited", async () => {
    const skill = await scriptSkill(await tempDir(), "returns", {
      "scripts/text.py": 'def main(word: str) -> str:\n    return f"<{word}>\\nsecond line"\n',
      "scripts/nothing.py": "def main(x: int) -> None:\n    pass\n",
      "scripts/printer.py": "def main(x: int) -> None:\n    print('only printed', x)\n",
      "scripts/objects.py":
        "import datetime\n\n\nclass Thing:\n    def __str__(self):\n        return 'a thing'\n\n\ndef main(nested: bool) -> object:\n    if nested:\n        return {'when': datetime.date(2024, 1, 2), 'thing': Thing(), 'nan': [float('nan')]}\n    return Thing()\n",
      "scripts/waiting.py":
        "import asyncio\n\n\nasync def main(n: int) -> int:\n    await asyncio.sleep(0)\n    return n * 2\n",
    });
    const { tool } = await toolsOf(skill);
    expect(await call(tool("text"), { word: "hi" })).toEqual({ content: "<hi>\nsecond line" });
    expect(await call(tool("nothing"), { x: 1 })).toEqual({ content: "(main() returned None)" });
    expect(await call(tool("printer"), { x: 7 })).toEqual({ content: "only printed 7" });
    expect(await call(tool("objects"), { nested: false })).toEqual({ content: "a thing" });
    // NaN makes the whole value non-JSON: str() of the dict, as Python prints it.
    const nested = await call(tool("objects"), { nested: true });
    expect(nested.isError).toBeUndefined();
    expect(nested.content).toContain("datetime.date(2024, 1, 2)");
    expect(await call(tool("waiting"), { n: 21 })).toEqual({ content: "42" });
  });

  it("sibling modules and modules of the skill folder import; the working folder is the skill folder", async () => {
    const skill = await scriptSkill(await tempDir(), "siblings", {
      "scripts/helper.py": "PREFIX = 'helper:'\n",
      "lib/shared.py": "SUFFIX = ':shared'\n",
      "data.txt": "from the folder\n",
      "scripts/join.py":
        "import os\nimport helper\nfrom lib import shared\n\n\ndef main(word: str) -> dict:\n    return {'text': helper.PREFIX + word + shared.SUFFIX, 'data': open('data.txt').read().strip(), 'pythonpath': os.environ['PYTHONPATH'] == os.getcwd()}\n",
    });
    const { tool } = await toolsOf(skill);
    expect(JSON.parse((await call(tool("join"), { word: "w" })).content)).toEqual({
      text: "helper:w:shared",
      data: "from the folder",
      pythonpath: true,
    });
  });

  it("gets the allowlisted environment plus the context's env, never the host's other variables", async () => {
    const skill = await scriptSkill(await tempDir(), "env", {
      "scripts/env.py": "import os\n\n\ndef main(name: str) -> object:\n    return os.environ.get(name)\n",
    });
    process.env.SKILLCTX_TEST_SECRET = "do not pass";
    try {
      const { tool } = await toolsOf(skill, { env: { SKILL_TOKEN: "given" } });
      expect(await call(tool("env"), { name: "SKILL_TOKEN" })).toEqual({ content: "given" });
      expect(await call(tool("env"), { name: "SKILLCTX_TEST_SECRET" })).toEqual({ content: "(main() returned None)" });
    } finally {
      delete process.env.SKILLCTX_TEST_SECRET;
    }
  });

  it("an exception, a wrong argument and sys.exit are error results the model can read", async () => {
    const skill = await scriptSkill(await tempDir(), "failing", {
      "scripts/boom.py": "def main(x: int) -> int:\n    raise ValueError(f'bad value {x}')\n",
      "scripts/quits.py": "import sys\n\n\ndef main(code: int) -> int:\n    print('leaving')\n    sys.exit(code)\n",
    });
    const { tool } = await toolsOf(skill);
    const boom = await call(tool("boom"), { x: 3 });
    expect(boom.isError).toBe(true);
    expect(boom.content).toContain("ValueError: bad value 3");
    expect(boom.content).toContain("[scripts/boom.py exited with code 1]");
    // Arguments are checked against the schema before anything runs.
    const wrong = await call(tool("boom"), { y: 1 });
    expect(wrong).toMatchObject({ isError: true, content: expect.stringContaining('Invalid arguments for "boom"') });
    expect(await call(tool("boom"), ["not", "an", "object"])).toMatchObject({
      isError: true,
      content: expect.stringContaining('Invalid arguments for "boom"'),
    });
    expect(await call(tool("boom"), { x: "3" })).toMatchObject({
      isError: true,
      content: expect.stringContaining("x:"),
    });
    const quits = await call(tool("quits"), { code: 0 });
    expect(quits).toEqual({
      isError: true,
      content: "leaving\n[scripts/quits.py: main() did not return (the script exited first)]",
    });
    expect(await call(tool("quits"), { code: 4 })).toMatchObject({
      isError: true,
      content: expect.stringContaining("exited with code 4"),
    });
  });

  it("emits script.finished with exit code, bytes and truncation", async () => {
    const skill = await scriptSkill(await tempDir(), "events", {
      "scripts/echo.py": "def main(text: str) -> str:\n    print('x' * 10)\n    return text\n",
    });
    const { tool, sink } = await toolsOf(skill);
    await call(tool("echo"), { text: "hello" });
    expect(sink.events).toEqual([
      {
        type: "script.finished",
        skill: "events",
        script: "scripts/echo.py",
        exitCode: 0,
        durationMs: expect.any(Number),
        bytes: expect.any(Number),
        truncated: false,
        timedOut: false,
      },
    ]);
    expect((sink.events[0] as { bytes: number }).bytes).toBeGreaterThan(16);
  });

  it("output past the cap stops the script with an error result; a main() past its timeout is killed", async () => {
    const skill = await scriptSkill(await tempDir(), "limits", {
      "scripts/flood.py":
        "import sys\n\n\ndef main(n: int) -> str:\n    while True:\n        sys.stdout.write('y' * 4096)\n",
      "scripts/slow.py":
        "import time\n\n\ndef main(seconds: float) -> str:\n    time.sleep(seconds)\n    return 'done'\n",
    });
    const sink = recordingSink();
    const capped = await toolsOf(skill, { maxOutputBytes: 10_000, timeoutMs: 30_000, events: sink });
    const flood = await call(capped.tool("flood"), { n: 1 });
    expect(flood.isError).toBe(true);
    expect(flood.content).toContain("[output cut at 10000 bytes; scripts/flood.py was stopped]");
    const timed = await toolsOf(skill, { timeoutMs: 1000, events: sink });
    const slow = await call(timed.tool("slow"), { seconds: 60 });
    expect(slow).toMatchObject({ isError: true, content: expect.stringContaining("timed out after 1000 ms") });
    expect(
      sink.events.map((e) => [(e as { truncated: boolean }).truncated, (e as { timedOut: boolean }).timedOut]),
    ).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it("aborting the call kills the script and rejects", async () => {
    const skill = await scriptSkill(await tempDir(), "abort", {
      "scripts/wait.py":
        "import time\n\n\ndef main(seconds: float) -> str:\n    time.sleep(seconds)\n    return 'done'\n",
    });
    const { tool } = await toolsOf(skill, { timeoutMs: 60_000 });
    const controller = new AbortController();
    const running = call(tool("wait"), { seconds: 60 }, controller.signal);
    setTimeout(() => controller.abort(new Error("stop")), 300);
    await expect(running).rejects.toThrow("stop");
  });

  it("arguments too large for one argv string are refused before anything runs", async () => {
    const skill = await scriptSkill(await tempDir(), "large", {
      "scripts/take.py": "def main(text: str) -> int:\n    return len(text)\n",
    });
    const { tool, sink } = await toolsOf(skill);
    expect(await call(tool("take"), { text: "z".repeat(50_000) })).toEqual({ content: "50000" });
    const refused = await call(tool("take"), { text: "z".repeat(200_000) });
    expect(refused).toMatchObject({ isError: true, content: expect.stringContaining("at most 100000 are passed") });
    expect(sink.events).toHaveLength(1);
  });
});

describeWithTool("python3")("the trust gate", () => {
  it("offers an untrusted project skill's script tools but refuses calls, saying how to trust it", async () => {
    const root = await tempDir();
    const flag = `${root}/ran.txt`;
    const skill = await scriptSkill(
      root,
      "repo-skill",
      {
        "scripts/touch.py": `def main(x: int) -> int:\n    open(${JSON.stringify(flag)}, "w").write("ran")\n    return x\n`,
      },
      "project",
    );
    const untrusted = await toolsOf(skill);
    const refused = await call(untrusted.tool("touch"), { x: 1 });
    expect(refused).toEqual({
      isError: true,
      content:
        'Not run: the skill "repo-skill" comes from the project scope, which is not trusted to run scripts. (The host can allow it with trust: { project: true }.)',
    });
    expect(untrusted.sink.events).toEqual([]);
    const { existsSync } = await import("node:fs");
    expect(existsSync(flag)).toBe(false);
    const trusted = await toolsOf(skill, { trust: { project: true } });
    expect(await call(trusted.tool("touch"), { x: 1 })).toEqual({ content: "1" });
    expect(existsSync(flag)).toBe(true);
  });

  it("names the origin of an untrusted remote skill", async () => {
    const skill = await scriptSkill(await tempDir(), "far", {
      "scripts/add.py": "def main(x: int) -> int:\n    return x\n",
    });
    const remote = Object.assign(skill, { source: { ...skill.source, scope: "remote" as const, origin: "acme" } });
    const { tool } = await toolsOf(remote);
    expect((await call(tool("add"), { x: 1 })).content).toContain('trust: { remote: ["acme"] }');
    const trusted = await toolsOf(remote, { trust: { remote: ["acme"] } });
    expect(await call(trusted.tool("add"), { x: 2 })).toEqual({ content: "2" });
  });
});
