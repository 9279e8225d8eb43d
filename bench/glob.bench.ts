/**
 * Glob matching (issue 10): skillctx's one glob module (a Thompson automaton, `@skillctx/core/internal`)
 * against micromatch, the matcher it replaces (a backtracking RegExp).
 *
 * - ordinary: 40 globs of the kinds Cursor rules and OpenHands `paths:` use × 500 repository paths,
 *   compiled once (the path matcher's steady state), and compiling those 40 globs;
 * - hostile, where micromatch finishes at all: the backtracking shape at a size micromatch survives;
 *   then skillctx alone on the shapes micromatch cannot finish (`**\/` + `*?` × 40 + `x` on a 4 KiB
 *   path, the worst shape accepted at the 512-character cap, a brace bomb) and relocating a glob of
 *   1,024 brace patterns (micromatch expanded them; skillctx does not).
 *
 * Run: `npx vitest bench --run bench/glob.bench.ts`
 */
import { createRequire } from "node:module";
import { compileGlob, relocateGlob } from "@skillctx/core/internal";
import { bench, describe } from "vitest";
import { mulberry32 } from "./bench-data.js";

// micromatch is a dev dependency of core (the reference of its property tests).
const micromatch = createRequire(new URL("../packages/core/package.json", import.meta.url))("micromatch") as {
  matcher(glob: string, options: { dot: boolean }): (path: string) => boolean;
  braces(glob: string, options: { expand: boolean }): string[];
};

// ---- Data: deterministic repository paths and the globs rules write.
const random = mulberry32(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const FOLDERS = [
  "src",
  "lib",
  "packages",
  "apps",
  "web",
  "api",
  "server",
  "components",
  "utils",
  "hooks",
  "tests",
  "__tests__",
  "docs",
  ".github",
  "workflows",
  "db",
  "migrations",
  "scripts",
  "config",
  "app",
  "[id]",
];
const FILES = [
  "index.ts",
  "index.tsx",
  "app.tsx",
  "button.test.ts",
  "README.md",
  "schema.sql",
  "ci.yml",
  "Makefile",
  "package.json",
  ".env",
  "main.py",
  "setup.cfg",
  "page.tsx",
  "styles.css",
  "util.js",
];
const PATHS = Array.from({ length: 500 }, () => {
  const depth = 1 + Math.floor(random() * 6);
  return [...Array.from({ length: depth }, () => pick(FOLDERS)), pick(FILES)].join("/");
});
const GLOBS = [
  "**/*.ts",
  "**/*.tsx",
  "*.md",
  "src/**/*.{ts,tsx}",
  "**/*.test.ts",
  "**/__tests__/**",
  "docs/**",
  ".github/workflows/*.yml",
  "packages/*/src/**/*.ts",
  "apps/web/**",
  "**/*.sql",
  "db/migrations/**",
  "Makefile",
  "**/Makefile",
  "*.{js,jsx,mjs,cjs}",
  "src/components/**/*.tsx",
  "**/*.py",
  "scripts/**",
  "config/*.json",
  "**/package.json",
  "**/.env",
  "app/\\[id\\]/**",
  "**/hooks/use*.ts",
  "lib/**",
  "server/**/*.ts",
  "api/**/*.{ts,js}",
  "**/*.css",
  "tests/**/*.test.{ts,tsx}",
  "**/*.{yml,yaml}",
  "src/utils/*",
  "**/index.{ts,tsx}",
  "web/**/page.tsx",
  "**/[A-Z]*.md",
  "packages/**/README.md",
  "**/setup.cfg",
  "apps/*/src/**",
  "**/*.spec.ts",
  "components/**",
  "**/migrations/*.sql",
  "docs/**/*.md",
];

// Same semantics for both: dot files match, and a glob without `/` matches at any depth.
const mine = GLOBS.map((glob) => {
  const compiled = compileGlob(glob);
  if (!compiled.ok) throw new Error(compiled.diagnostic.message);
  return compiled.glob.test;
});
const theirs = GLOBS.map((glob) => micromatch.matcher(glob.includes("/") ? glob : `**/${glob}`, { dot: true }));
let sink = 0;

describe("ordinary globs: 40 globs × 500 paths, compiled once", () => {
  bench("skillctx glob (automaton)", () => {
    for (const test of mine) for (const p of PATHS) if (test(p)) sink++;
  });
  bench("micromatch (RegExp)", () => {
    for (const test of theirs) for (const p of PATHS) if (test(p)) sink++;
  });
});

describe("ordinary globs: compiling 40 globs", () => {
  bench("skillctx glob", () => {
    for (const glob of GLOBS) if (compileGlob(glob).ok) sink++;
  });
  bench("micromatch", () => {
    for (const glob of GLOBS) if (micromatch.matcher(glob.includes("/") ? glob : `**/${glob}`, { dot: true })) sink++;
  });
});

// Small enough for micromatch to finish: `**/` + `*?` × 6 + `x` against a 30-character segment.
const smallShape = `**/${"*?".repeat(6)}x`;
const smallPath = `src/${"b".repeat(30)}`;
const mineSmall = compileGlob(smallShape);
const theirsSmall = micromatch.matcher(smallShape, { dot: true });
describe("hostile, micromatch finishes: **/ + *? × 6 + x on a 30-character name", () => {
  bench("skillctx glob", () => {
    if (mineSmall.ok && mineSmall.glob.test(smallPath)) sink++;
  });
  bench(
    "micromatch",
    () => {
      if (theirsSmall(smallPath)) sink++;
    },
    { iterations: 5, time: 0 },
  );
});

// skillctx only: micromatch takes minutes (or millions of globs) on these.
const BACKTRACK = compileGlob(`**/${"*?".repeat(40)}x`);
const BACKTRACK_PATHS = [`${"a/".repeat(10)}${"b".repeat(4000)}`, `d/${"b".repeat(3000)}/${"c".repeat(39)}x`];
const WORST = compileGlob(`/${"*a".repeat(254)}*b*`);
const WORST_PATH = "a".repeat(4095);
describe("hostile, skillctx only", () => {
  bench("**/ + *? × 40 + x, two paths of 3-4 KiB", () => {
    if (BACKTRACK.ok) for (const p of BACKTRACK_PATHS) if (BACKTRACK.glob.test(p)) sink++;
  });
  bench("worst accepted shape (*a × 254 + *b*, 511 characters), a 4 KiB path", () => {
    if (WORST.ok && WORST.glob.test(WORST_PATH)) sink++;
  });
  bench("20 brace sets of 2 (1,048,576 patterns): refused", () => {
    if (!compileGlob("{a,b}".repeat(20)).ok) sink++;
  });
});

// The old compat relocation expanded every brace set before moving a glob up to cwd.
const BRACES_10 = `packages/api/${"{a,b}".repeat(10)}/**`;
describe("relocating a glob of 1,024 brace patterns (up: packages/api)", () => {
  bench("skillctx relocateGlob (automaton, no expansion)", () => {
    sink += relocateGlob(BRACES_10, { up: "packages/api" }).length;
  });
  bench("micromatch.braces expand (what compat did first)", () => {
    sink += micromatch.braces(BRACES_10, { expand: true }).length;
  });
});
