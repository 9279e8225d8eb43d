import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkRelativePath,
  childPath,
  isInside,
  isAbsentError,
  realPathOrSelf,
  resolveInside,
  statIfPresentSync,
  toPosix,
  toPosixRelative,
} from "./paths.js";

describe("isInside", () => {
  it("is true for the folder itself and what lies below it, false for siblings with a common prefix", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b/c", "/a/b")).toBe(true);
    expect(isInside("/a/b/c", "/a/b/")).toBe(true);
    expect(isInside("/a/bc", "/a/b")).toBe(false);
    expect(isInside("/a", "/a/b")).toBe(false);
    expect(isInside("/etc/passwd", "/")).toBe(true);
    expect(isInside("/a/b/../../etc", "/a/b")).toBe(false);
    expect(isInside("/a/b/.git/x", "/a/b")).toBe(true);
  });

  it("agrees with path.relative on any pair of normalised paths", () => {
    const segment = fc.constantFrom("a", "b", "ab", ".x", "é");
    const absolute = fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join("/")}`);
    fc.assert(
      fc.property(absolute, absolute, (child, parent) => {
        const relative = path.relative(parent, child);
        expect(isInside(child, parent)).toBe(
          relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative)),
        );
      }),
    );
  });
});

describe("toPosixRelative", () => {
  it("gives the path below the root with / separators, empty for the root itself", () => {
    expect(toPosixRelative("/a/b", "/a/b/c/d.md")).toBe("c/d.md");
    expect(toPosixRelative("/a/b", "/a/b")).toBe("");
    expect(toPosixRelative("/a/b/", "/a/b/c")).toBe("c");
    expect(toPosixRelative("/a/b", "/a/b/.claude/skills")).toBe(".claude/skills");
  });

  it("is undefined outside the root, whether a parent, a sibling with a common prefix or reached through ..", () => {
    expect(toPosixRelative("/a/b", "/a")).toBeUndefined();
    expect(toPosixRelative("/a/b", "/a/bc/x")).toBeUndefined();
    expect(toPosixRelative("/a/b", "/a/b/../c")).toBeUndefined();
    expect(toPosixRelative("/a/b", "/etc/passwd")).toBeUndefined();
  });

  it("keeps a name that only begins with two dots (it is inside)", () => {
    expect(toPosixRelative("/a", "/a/..notes/x")).toBe("..notes/x");
    expect(toPosixRelative("/a", "/a/..")).toBeUndefined();
  });

  it("resolves relative arguments against the process's folder, as path.relative does", () => {
    expect(toPosixRelative(process.cwd(), "x/y")).toBe("x/y");
    expect(toPosixRelative(".", path.join(process.cwd(), "z"))).toBe("z");
  });

  it("agrees with isInside on any pair of normalised paths", () => {
    const segment = fc.constantFrom("a", "b", "ab", ".x", "..y", "é");
    const absolute = fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join("/")}`);
    fc.assert(
      fc.property(absolute, absolute, (child, parent) => {
        const relative = toPosixRelative(parent, child);
        expect(relative !== undefined).toBe(isInside(child, parent));
        if (relative !== undefined) expect(path.posix.join(parent, relative)).toBe(path.posix.normalize(child));
      }),
    );
  });
});

describe("toPosix", () => {
  it("leaves a POSIX path as it is", () => {
    expect(toPosix("a/b/c")).toBe("a/b/c");
    expect(toPosix("")).toBe("");
  });
});

describe("childPath", () => {
  it("is path.join for the folders a scan gives and for those that need normalising", () => {
    const folders = [
      "/a/b",
      "/a/.claude/skills/x",
      "/a/./b",
      "/a/../b",
      "/a/b/.",
      "/a/b/..",
      "/a/b/",
      "/",
      "/a//b",
      "a/b",
      "./a",
      "/a/.../b",
      "/a/..b",
      "/.",
      "/..",
      "",
    ];
    for (const dir of folders) {
      for (const name of [".mcp.json", "agents/openai.yaml"])
        expect(childPath(dir, name), `${dir} + ${name}`).toBe(path.join(dir, name));
    }
  });

  it("is path.join for any folder built from names, dots and separators (property)", () => {
    const segment = fc.constantFrom("", ".", "..", "...", ".x", "x.", "a", "skills", ".claude");
    const dir = fc
      .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }))
      .map(([absolute, parts]) => (absolute ? "/" : "") + parts.join("/"));
    fc.assert(
      fc.property(
        dir,
        fc.constantFrom(".mcp.json", "agents/openai.yaml"),
        (d, name) => childPath(d, name) === path.join(d, name),
      ),
    );
  });
});

describe("checkRelativePath", () => {
  it("refuses traversal, absolute, encoded and empty paths; normalises ./ and //", () => {
    for (const bad of [
      "../x",
      "a/../../x",
      "/etc/passwd",
      "~/.ssh/id_rsa",
      "C:/x",
      "%2e%2e/x",
      "a\\b",
      "a\0b",
      " ",
      "./",
    ]) {
      expect(checkRelativePath(bad).ok, bad).toBe(false);
    }
    expect(checkRelativePath("./a//b/./c")).toEqual({ ok: true, path: "a/b/c" });
  });
});

describe("resolveInside", () => {
  let root: string;
  let outside: string;
  beforeAll(async () => {
    outside = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-resolve-")));
    root = path.join(outside, "root");
    await mkdir(path.join(root, "refs"), { recursive: true });
    await writeFile(path.join(root, "refs/a.md"), "a");
    await writeFile(path.join(outside, "secret.txt"), "SECRET");
    await symlink("a.md", path.join(root, "refs/alias.md"));
    await symlink(path.join(outside, "secret.txt"), path.join(root, "refs/escape.md"));
    await symlink("loop2", path.join(root, "loop1"));
    await symlink("loop1", path.join(root, "loop2"));
  });
  afterAll(async () => {
    await rm(outside, { recursive: true, force: true });
  });

  it("resolves a path inside, through symlinks that stay inside", async () => {
    expect(await resolveInside(root, "./refs/alias.md")).toMatchObject({
      ok: true,
      path: "refs/alias.md",
      realPath: path.join(root, "refs/a.md"),
    });
  });

  it("refuses with a code: invalid paths, symlinks out, loops and missing files", async () => {
    expect(await resolveInside(root, "../secret.txt")).toMatchObject({ ok: false, code: "PATH_INVALID" });
    expect(await resolveInside(root, "refs/escape.md")).toMatchObject({ ok: false, code: "PATH_OUTSIDE_ROOT" });
    expect(await resolveInside(root, "loop1")).toMatchObject({ ok: false, code: "SYMLINK_LOOP" });
    expect(await resolveInside(root, "refs/none.md")).toMatchObject({ ok: false, code: "NOT_FOUND", missing: true });
    expect(await resolveInside(path.join(outside, "gone"), "a.md")).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
      missing: true,
    });
  });
});

describe("realPathOrSelf", () => {
  it("resolves a symlinked folder, and gives a missing one back unchanged", async () => {
    const base = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-realpath-")));
    try {
      await mkdir(path.join(base, "real"));
      await symlink(path.join(base, "real"), path.join(base, "link"));
      expect(realPathOrSelf(path.join(base, "link"))).toBe(path.join(base, "real"));
      expect(realPathOrSelf(path.join(base, "missing"))).toBe(path.join(base, "missing"));
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe("statIfPresentSync", () => {
  it("is undefined for a missing path and for a path under a file (ENOTDIR), a Stats otherwise", async () => {
    const base = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-stat-")));
    try {
      // Cline's single-file `.clinerules`: `.clinerules/skills` lies under a file.
      await writeFile(path.join(base, ".clinerules"), "# rules\n");
      expect(statIfPresentSync(path.join(base, ".clinerules", "skills"))).toBeUndefined();
      expect(statIfPresentSync(path.join(base, "missing", "skills"))).toBeUndefined();
      expect(statIfPresentSync(path.join(base, ".clinerules"))?.isFile()).toBe(true);
      expect(isAbsentError(Object.assign(new Error("x"), { code: "ENOTDIR" }))).toBe(true);
      expect(isAbsentError(Object.assign(new Error("x"), { code: "EACCES" }))).toBe(false);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
