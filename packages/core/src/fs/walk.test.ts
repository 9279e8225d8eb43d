import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { walk } from "./walk.js";
import type { WalkEntry, WalkOptions } from "./walk.js";
import { compareCodePoints } from "../code-point-order.js";

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-walk-")));
  temps.push(dir);
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(dir, relative);
    await mkdir(path.dirname(file), { recursive: true });
    if (!relative.endsWith("/")) await writeFile(file, text);
  }
  return dir;
}

async function entries(
  root: string,
  options: WalkOptions = {},
): Promise<{ seen: string[]; codes: string[]; complete: boolean; all: WalkEntry[] }> {
  const all: WalkEntry[] = [];
  const result = await walk(root, { ...options, visit: (entry) => void all.push(entry) });
  return {
    seen: all.map((e) => `${e.relative}${e.type === "dir" ? "/" : e.type === "other" ? "|" : ""}`),
    codes: result.diagnostics.map((d) => d.code),
    complete: result.complete,
    all,
  };
}

describe("walk", () => {
  it("visits folders before their contents, entries in code-point order", async () => {
    const root = await tree({ "b.md": "", "B.md": "", "a/z.md": "", "a/é.md": "", "a/A/x.md": "", "é.md": "" });
    const { seen, codes, complete } = await entries(root);
    expect(seen).toEqual(["B.md", "a/", "a/A/", "a/A/x.md", "a/z.md", "a/é.md", "b.md", "é.md"]);
    expect(codes).toEqual([]);
    expect(complete).toBe(true);
  });

  // Two ways to sort one folder (walk.ts inNameOrder): natively when no name holds a surrogate, else by
  // compareCodePoints. U+E000..U+FFFF come before a character beyond U+FFFF in code-point order, after its
  // surrogates in code-unit order.
  it("orders a folder by code point with and without names beyond U+FFFF", async () => {
    const bmp = ["z.md", "\uE000.md", "\uFFFD.md", "A.md", "é.md", "a.md", "0.md"];
    const withAstral = [...bmp, "\u{1F600}.md", "\u{10000}.md"];
    for (const names of [bmp, withAstral]) {
      const root = await tree(Object.fromEntries(names.map((n) => [n, ""])));
      const { seen } = await entries(root);
      expect(seen).toEqual([...names].sort(compareCodePoints));
      expect(seen.at(-1)).toBe(names === bmp ? "\uFFFD.md" : "\u{1F600}.md");
    }
  });

  it("skips names before any file-system call, and does not enter a folder the visitor refuses", async () => {
    const root = await tree({ ".hidden/a.md": "", "node_modules/b.md": "", "keep/c.md": "", "closed/d.md": "" });
    const seen: string[] = [];
    await walk(root, {
      skip: (name) => name.startsWith(".") || name === "node_modules",
      visit: (entry) => {
        seen.push(entry.relative);
        return entry.name !== "closed";
      },
    });
    expect(seen).toEqual(["closed", "keep", "keep/c.md"]);
  });

  it("enters folders to maxDepth and says once that deeper ones were skipped", async () => {
    const root = await tree({ "1/2/3/deep.md": "", "1/2/3/4/deeper.md": "", "1/2/x/4/other.md": "" });
    const { seen, codes } = await entries(root, { maxDepth: 3 });
    expect(seen).toEqual(["1/", "1/2/", "1/2/3/", "1/2/3/deep.md", "1/2/x/"]);
    expect(codes).toEqual(["WALK_TOO_DEEP"]);
  });

  it("stops at maxEntries (folders count) with WALK_LIMIT", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`d${i}/f.md`] = "";
    const root = await tree(files);
    const { seen, codes, complete } = await entries(root, { maxEntries: 20 });
    expect(complete).toBe(false);
    expect(codes).toEqual(["WALK_LIMIT"]);
    expect(seen.length).toBeLessThanOrEqual(20);
  });

  it("follows symlinks once per real folder, ends loops, and reports dangling links", async () => {
    const root = await tree({ "real/a.md": "", "other.md": "" });
    await symlink(path.join(root, "real"), path.join(root, "alias"));
    await symlink(root, path.join(root, "real/up"));
    await symlink(".", path.join(root, "self"));
    await symlink("nowhere", path.join(root, "dangling.md"));
    await symlink("loop-b", path.join(root, "loop-a"));
    await symlink("loop-a", path.join(root, "loop-b"));
    await symlink("other.md", path.join(root, "linked.md"));
    const { seen, codes, all } = await entries(root);
    // "alias" comes first in code-point order, so the real folder is walked through it once.
    expect(seen).toEqual(["alias/", "alias/a.md", "linked.md", "other.md"]);
    expect(codes.sort(compareCodePoints)).toEqual(["BROKEN_SYMLINK", "BROKEN_SYMLINK", "BROKEN_SYMLINK"]);
    expect(all.find((e) => e.name === "linked.md")).toMatchObject({
      symlink: true,
      realPath: path.join(root, "other.md"),
      type: "file",
    });
  });

  it("with containRoot, does not follow symlinks that leave it (a file, a folder, /), and reports them", async () => {
    const outside = await tree({ "secret.txt": "SECRET", "dir/inner.md": "" });
    const root = await tree({ "in.md": "" });
    await symlink(path.join(outside, "secret.txt"), path.join(root, "secret.md"));
    await symlink(path.join(outside, "dir"), path.join(root, "dir"));
    await symlink("/", path.join(root, "slash"));
    await symlink("in.md", path.join(root, "ok.md"));
    const { seen, codes } = await entries(root, { containRoot: root });
    expect(seen).toEqual(["in.md", "ok.md"]);
    expect(codes).toEqual(["PATH_OUTSIDE_ROOT", "PATH_OUTSIDE_ROOT", "PATH_OUTSIDE_ROOT"]);
    // Only names worth a word are reported.
    const quiet = await walk(root, { containRoot: root, report: (_relative, name) => name.endsWith(".md") });
    expect(quiet.diagnostics.map((d) => d.path)).toEqual([path.join(root, "secret.md")]);
  });

  it("refuses to walk a folder that itself lies outside containRoot", async () => {
    const outside = await tree({ "x.md": "" });
    const root = await tree({});
    const { seen, codes } = await entries(outside, { containRoot: root });
    expect(seen).toEqual([]);
    expect(codes).toEqual(["PATH_OUTSIDE_ROOT"]);
  });

  it("reports FIFOs as `other` without opening them", async () => {
    const root = await tree({ "a.md": "" });
    execFileSync("mkfifo", [path.join(root, "pipe.md")]);
    await symlink("pipe.md", path.join(root, "to-pipe.md"));
    const { seen } = await entries(root);
    expect(seen).toEqual(["a.md", "pipe.md|", "to-pipe.md|"]);
  });

  it("shares a visited set between walks, and rejects with the signal's reason", async () => {
    const root = await tree({ "a/x.md": "" });
    const visited = new Set<string>();
    await walk(root, { visited });
    expect(visited.has(path.join(root, "a"))).toBe(true);
    const again = await entries(root, { visited });
    expect(again.seen).toEqual([]);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(walk(root, { signal: controller.signal })).rejects.toThrow("stop");
  });
});
