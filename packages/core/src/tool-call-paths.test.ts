import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toolCallPaths } from "./tool-call-paths.js";

describe("toolCallPaths", () => {
  it("reads the path arguments of common file tools", () => {
    expect(toolCallPaths({ file_path: "src/a.ts", old_string: "x", new_string: "y" })).toEqual(["src/a.ts"]); // Claude Code Edit
    expect(toolCallPaths({ command: "view", path: "/repo/README.md" })).toEqual(["/repo/README.md"]); // OpenHands editor
    expect(toolCallPaths({ absolute_path: "/repo/b.py" })).toEqual(["/repo/b.py"]); // Gemini CLI read_file
    expect(toolCallPaths({ target_file: "c.go", instructions: "edit" })).toEqual(["c.go"]); // Cursor
    expect(toolCallPaths({ notebook_path: "n.ipynb" })).toEqual(["n.ipynb"]);
    expect(toolCallPaths({ source: "a.txt", destination: "b.txt" })).toEqual(["a.txt", "b.txt"]); // MCP move_file
    expect(toolCallPaths({ paths: ["a", "b"], filePath: "c", "file-name": "d", FILES: ["e"] })).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
    ]);
  });

  it("parses JSON argument text and ignores text that is not JSON", () => {
    expect(toolCallPaths(JSON.stringify({ filename: "docs/x.md" }))).toEqual(["docs/x.md"]);
    expect(toolCallPaths("{not json")).toEqual([]);
    expect(toolCallPaths('"just a string"')).toEqual([]);
  });

  it("searches one level of nesting, not deeper", () => {
    expect(toolCallPaths({ edits: [{ file_path: "a.ts" }, { file_path: "b.ts" }], options: { path: "c.ts" } })).toEqual(
      ["a.ts", "b.ts", "c.ts"],
    );
    expect(toolCallPaths({ outer: { inner: { path: "deep.ts" } } })).toEqual([]);
    expect(toolCallPaths([{ path: "top-level-array.ts" }])).toEqual(["top-level-array.ts"]);
  });

  it("reads apply_patch envelopes", () => {
    const input = [
      "*** Begin Patch",
      "*** Update File: src/app.ts",
      "@@",
      "-a",
      "+b",
      "*** Move to: src/main.ts",
      "*** Add File: docs/new.md",
      "+hello",
      "*** Delete File: old.txt",
      "*** End Patch",
    ].join("\n");
    expect(toolCallPaths({ input })).toEqual(["src/app.ts", "src/main.ts", "docs/new.md", "old.txt"]);
    expect(toolCallPaths({ input: "*** Update File: not-a-patch.ts" })).toEqual([]);
  });

  it("converts file URLs, skips other URLs, content and non-strings, and removes duplicates", () => {
    const url = pathToFileURL("/tmp/some dir/a.ts").href;
    expect(toolCallPaths({ path: url })).toEqual(["/tmp/some dir/a.ts"]);
    expect(toolCallPaths({ path: "https://example.com/a.ts", file: "s3://bucket/key" })).toEqual([]);
    expect(
      toolCallPaths({ source: "print(1)\nprint(2)", path: "", file: 42, files: [null, "x", "x"], filename: "a\0b" }),
    ).toEqual(["x"]);
    expect(toolCallPaths({ path: "  spaced.ts  " })).toEqual(["spaced.ts"]);
  });

  it("ignores keys that are not path keys", () => {
    expect(toolCallPaths({ command: "cat a.ts", pattern: "*.ts", query: "src/a.ts" })).toEqual([]);
  });

  it("caps the number of paths", () => {
    const files = Array.from({ length: 1000 }, (_, i) => `f${i}.ts`);
    const paths = toolCallPaths({ files });
    expect(paths).toHaveLength(256);
    expect(paths[0]).toBe("f0.ts");
  });

  it("never throws, and returns only trimmed string values found in the input", () => {
    const key = fc.constantFrom(
      "path",
      "file_path",
      "filePath",
      "paths",
      "files",
      "edits",
      "options",
      "command",
      "input",
      "x",
    );
    const leaf = fc.oneof(
      fc.string(),
      fc.constantFrom("src/a.ts", " b.md ", "", "a\nb"),
      fc.integer(),
      fc.constant(null),
    );
    const args = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("node"), { maxLength: 4 }),
        fc.dictionary(key, tie("node"), { maxKeys: 5 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.oneof(args, fc.anything()), (value) => {
        const leaves = new Set<string>();
        const walk = (v: unknown): void => {
          if (typeof v === "string") leaves.add(v.trim());
          else if (typeof v === "object" && v !== null) for (const item of Object.values(v)) walk(item);
        };
        walk(value);
        for (const p of toolCallPaths(value)) expect(leaves.has(p)).toBe(true);
        for (const p of toolCallPaths(JSON.stringify(value) ?? "")) expect(leaves.has(p)).toBe(true);
      }),
      { numRuns: 1000 },
    );
    const hostile = {
      get path(): string {
        throw new Error("boom");
      },
    };
    expect(toolCallPaths(hostile)).toEqual([]);
  });
});
