import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import micromatch from "micromatch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPathMatcher } from "./path-matcher.js";
import type { Skill } from "./skill.js";

// Reference: micromatch with dot files, and a glob without `/` put at any depth (OpenHands, Cursor).
const isMatch = (p: string, g: string) => micromatch.isMatch(p, g.includes("/") ? g : `**/${g}`, { dot: true });
const pathSkill = (name: string, globs: string[]): Pick<Skill, "name" | "trigger"> => ({
  name,
  trigger: { type: "path", globs },
});

let repo: string;
beforeAll(async () => {
  repo = await mkdtemp(path.join(tmpdir(), "skillctx-path-matcher-"));
  await mkdir(path.join(repo, "src", "db"), { recursive: true });
  await mkdir(path.join(repo, ".github", "workflows"), { recursive: true });
  await writeFile(path.join(repo, "src", "db", "schema.sql"), "create table t (id int);\n");
  await writeFile(path.join(repo, "src", "app.ts"), "export {};\n");
  await writeFile(path.join(repo, ".github", "workflows", "ci.yml"), "on: push\n");
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe("createPathMatcher", () => {
  it("matches relative and absolute paths against globs relative to cwd, dot files included", () => {
    const matcher = createPathMatcher([
      pathSkill("sql", ["**/*.sql"]),
      pathSkill("ci", [".github/workflows/*.yml"]),
      pathSkill("ts", ["src/**/*.ts"]),
      { name: "kw", trigger: { type: "keyword", keywords: ["sql"] } },
    ]);
    expect(
      matcher.match([path.join(repo, "src", "db", "schema.sql"), ".github/workflows/ci.yml", "./src/app.ts"], repo),
    ).toEqual([
      { skill: "ci", path: ".github/workflows/ci.yml", glob: ".github/workflows/*.yml" },
      { skill: "sql", path: "src/db/schema.sql", glob: "**/*.sql" },
      { skill: "ts", path: "src/app.ts", glob: "src/**/*.ts" },
    ]);
    expect(matcher.match(["README.md"], repo)).toEqual([]);
  });

  it("never matches paths outside cwd, nor cwd itself", async () => {
    const matcher = createPathMatcher([pathSkill("all", ["**"]), pathSkill("sql", ["**/*.sql"])]);
    const outside = await mkdtemp(path.join(tmpdir(), "skillctx-outside-"));
    try {
      await writeFile(path.join(outside, "x.sql"), "");
      expect(matcher.match([path.join(outside, "x.sql"), "../x.sql", "src/../../x.sql", repo, "."], repo)).toEqual([]);
      // A file whose name starts with two dots is inside.
      expect(matcher.match(["..data.sql"], repo)).toEqual([
        { skill: "all", path: "..data.sql", glob: "**" },
        { skill: "sql", path: "..data.sql", glob: "**/*.sql" },
      ]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("does not follow symlinks (pure path arithmetic)", async () => {
    await symlink(path.join(repo, "src"), path.join(repo, "link"));
    const matcher = createPathMatcher([pathSkill("src", ["src/**"])]);
    expect(matcher.match(["link/app.ts"], repo)).toEqual([]);
  });

  it("reports the first declared glob that matches, with the first path it matches", () => {
    const matcher = createPathMatcher([pathSkill("docs", ["docs/**/*.md", "**/*.md"])]);
    expect(matcher.match(["README.md", "docs/b.md", "docs/a.md"], repo)).toEqual([
      { skill: "docs", path: "docs/b.md", glob: "docs/**/*.md" },
    ]);
    expect(matcher.match(["README.md"], repo)).toEqual([{ skill: "docs", path: "README.md", glob: "**/*.md" }]);
  });

  it("treats leading ./ and / of a glob as anchored at cwd, and ! globs as exclusions", () => {
    const matcher = createPathMatcher([
      pathSkill("anchored", ["/src/*.ts"]),
      pathSkill("dotted", ["./src/*.ts"]),
      pathSkill("not-tests", ["**/*.ts", "!**/*.test.ts"]),
    ]);
    expect(matcher.match(["src/a.test.ts"], repo)).toEqual([
      { skill: "anchored", path: "src/a.test.ts", glob: "/src/*.ts" },
      { skill: "dotted", path: "src/a.test.ts", glob: "./src/*.ts" },
    ]);
    expect(matcher.match(["src/a.test.ts", "lib/b.ts"], repo).map((m) => [m.skill, m.path])).toEqual([
      ["anchored", "src/a.test.ts"],
      ["dotted", "src/a.test.ts"],
      ["not-tests", "lib/b.ts"],
    ]);
  });

  // Changed in issue 10: a glob without `/` matches at any depth, as in OpenHands and Cursor (was: top level only).
  it("a glob without / matches at any depth; ./ and / anchor it", () => {
    const matcher = createPathMatcher([
      pathSkill("ts", ["*.ts"]),
      pathSkill("make", ["Makefile"]),
      pathSkill("root", ["./*.md"]),
    ]);
    expect(matcher.match(["src/deep/a.ts", "a/b/Makefile", "docs/a.md"], repo).map((m) => [m.skill, m.path])).toEqual([
      ["make", "a/b/Makefile"],
      ["ts", "src/deep/a.ts"],
    ]);
    expect(matcher.match(["README.md"], repo).map((m) => m.skill)).toEqual(["root"]);
  });

  it("braces, classes and escapes work in paths: globs", () => {
    const matcher = createPathMatcher([
      pathSkill("ab", ["src/{a,b}/**"]),
      pathSkill("cls", ["lib/[xy].ts"]),
      pathSkill("lit", ["/\\[id\\].tsx"]),
    ]);
    expect(
      matcher
        .match(["src/b/c.ts", "lib/y.ts", "[id].tsx", "src/c/d.ts", "lib/z.ts"], repo)
        .map((m) => [m.skill, m.path]),
    ).toEqual([
      ["ab", "src/b/c.ts"],
      ["cls", "lib/y.ts"],
      ["lit", "[id].tsx"],
    ]);
  });

  it("refuses globs over the caps with GLOB_TOO_COMPLEX in matcher.diagnostics; the skill's other globs still work", () => {
    const matcher = createPathMatcher([
      {
        ...pathSkill("hostile", [`**/${"*?".repeat(300)}x`, "{a,b}".repeat(11), "*.sql"]),
        source: { path: "/r/.openhands/microagents/hostile.md" },
      },
      pathSkill(
        "many",
        Array.from({ length: 300 }, (_, i) => `d${i}/**`),
      ),
    ]);
    expect(matcher.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["GLOB_TOO_COMPLEX", "/r/.openhands/microagents/hostile.md"],
      ["GLOB_TOO_COMPLEX", "/r/.openhands/microagents/hostile.md"],
      ["GLOB_TOO_COMPLEX", undefined],
    ]);
    expect(matcher.diagnostics[0]!.message).toContain('of skill "hostile" refused: it is longer than 512 characters');
    expect(matcher.diagnostics[2]!.message).toContain('Globs of skill "many" refused: 300 globs are declared');
    expect(matcher.match(["db/x.sql", "d299/a", "d1/a"], repo).map((m) => [m.skill, m.path])).toEqual([
      ["hostile", "db/x.sql"],
      ["many", "d1/a"],
    ]);
    expect(createPathMatcher([pathSkill("ok", ["**/*.ts"])]).diagnostics).toEqual([]);
  });

  it("is case-sensitive and orders skills by code point", () => {
    const matcher = createPathMatcher([pathSkill("b", ["*.MD"]), pathSkill("B", ["*.md"]), pathSkill("é", ["*.md"])]);
    expect(matcher.match(["a.md"], repo).map((m) => m.skill)).toEqual(["B", "é"]);
  });

  it("never throws on bad input", () => {
    const matcher = createPathMatcher([
      pathSkill("x", ["**"]),
      { name: "y", trigger: { type: "path", globs: [42 as unknown as string, ""] } },
    ]);
    expect(matcher.match(undefined as unknown as string[], repo)).toEqual([]);
    expect(matcher.match(["a"], "")).toEqual([]);
    expect(matcher.match([42 as unknown as string, "", "a\0b", "ok.txt"], repo)).toEqual([
      { skill: "x", path: "ok.txt", glob: "**" },
    ]);
  });

  it("agrees with micromatch on relative paths, a glob without / matching at any depth (property)", () => {
    const segment = fc.constantFrom("src", "docs", ".github", "a.ts", "b.md", ".env", "x.sql", "é.ts");
    const relative = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));
    const glob = fc.constantFrom("**/*.ts", "*.md", "src/**", ".github/**", "**/.env", "docs/*.md", "**/*");
    fc.assert(
      fc.property(
        fc.array(relative, { minLength: 1, maxLength: 4 }),
        fc.array(glob, { minLength: 1, maxLength: 3 }),
        (paths, globs) => {
          const [match] = createPathMatcher([pathSkill("s", globs)]).match(paths, repo);
          const expectedGlob = globs.find((g) => paths.some((p) => isMatch(p, g)));
          expect(match?.glob).toBe(expectedGlob);
          if (expectedGlob !== undefined) expect(match?.path).toBe(paths.find((p) => isMatch(p, expectedGlob)));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("a rule's own file does not fire it", () => {
  // opencode attaches no nested AGENTS.md when the tool call read that file itself (its text is in the
  // tool result already): anomalyco/opencode packages/opencode/src/session/instruction.ts (InstructionPrompt.resolve).
  const nested = {
    name: "agents:server",
    trigger: { type: "path" as const, globs: ["server/**"] },
    source: { path: "/repo/server/AGENTS.md" },
  };

  it("reading server/AGENTS.md alone fires nothing; another file under server/ still does", () => {
    const matcher = createPathMatcher([nested]);
    expect(matcher.match(["/repo/server/AGENTS.md"], "/repo")).toEqual([]);
    expect(matcher.match(["server/AGENTS.md"], "/repo")).toEqual([]);
    expect(matcher.match(["/repo/server/AGENTS.md", "/repo/server/main.go"], "/repo")).toEqual([
      { skill: "agents:server", path: "server/main.go", glob: "server/**" },
    ]);
  });
});
