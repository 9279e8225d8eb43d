// The targets of `pnpm mutation` (scripts/mutation.mjs): the parsers of untrusted text and the search (issue 38).
// Each names the files Stryker mutates and the unit tests that cover them: only those run against its mutants.
// End-to-end tests that start the built CLI in a child process are not listed: they cannot see an in-process
// mutant. `threshold` is the score (in %) below which the run fails (docs/mutation.md).

const core = (file) => `packages/core/src/${file}`;

/** @type {readonly {name: string, mutate: string[], tests: string[], threshold: number}[]} */
export const TARGETS = [
  {
    name: "frontmatter",
    mutate: [core("frontmatter*.ts"), core("colon-retry.ts"), core("yaml-*.ts"), `!${core("*.test.ts")}`],
    tests: [
      core("frontmatter.test.ts"),
      core("frontmatter-diagnostics.test.ts"),
      core("frontmatter-fast.test.ts"),
      core("frontmatter-scan.test.ts"),
      core("frontmatter-split.test.ts"),
      core("frontmatter-read.test.ts"),
      core("colon-retry.test.ts"),
      core("yaml-document.test.ts"),
      core("yaml-depth.test.ts"),
      core("yaml-values.test.ts"),
      core("read-head.test.ts"),
      core("parse-skill.test.ts"),
      // The in-process tests of yaml-strict.ts (what strictyaml refuses), read by the validator only.
      core("validate.test.ts"),
      core("yaml-strict.test.ts"),
      // Not test/adversarial/parsing.test.ts: every test there runs in a child process on the built package
      // (test/adversarial/isolated.ts), which never sees a mutant of the sources; it only made each static
      // mutant (run against every listed test) cost 15 s more.
      "test/fuzz/frontmatter.fuzz.test.ts",
    ],
    threshold: 85,
  },
  {
    name: "markdown",
    mutate: [core("markdown/*.ts"), `!${core("markdown/*.test.ts")}`],
    tests: [
      core("markdown/*.test.ts"),
      "test/markdown-consumers.test.ts",
      // Not test/adversarial/markdown.test.ts: it bounds the scan time of hostile inputs (< 3 s), which the
      // instrumented scanner on a loaded machine exceeds in the dry run (5.4 s); a mutant it would catch is a
      // slowdown, which Stryker counts as a timeout anyway.
      "test/fuzz/markdown.fuzz.test.ts",
    ],
    threshold: 85,
  },
  {
    name: "glob",
    mutate: [core("glob/*.ts"), `!${core("glob/*.test.ts")}`],
    tests: [
      core("glob/*.test.ts"),
      core("path-matcher.test.ts"),
      "packages/compat/src/globs.test.ts",
      // Not test/adversarial/globs.test.ts: it bounds the time of hostile globs, which instrumented code on a
      // loaded machine exceeds; a mutant it would catch is a slowdown, which Stryker counts as a timeout anyway.
      "test/fuzz/glob.fuzz.test.ts",
    ],
    threshold: 85,
  },
  {
    name: "keyword-matcher",
    mutate: [core("keyword-matcher.ts"), core("keyword-chars.ts")],
    tests: [core("keyword-matcher*.test.ts")],
    threshold: 85,
  },
  {
    name: "imports",
    mutate: ["packages/compat/src/imports.ts", "packages/compat/src/import-mentions.ts"],
    tests: [
      "packages/compat/src/imports*.test.ts",
      "test/markdown-consumers.test.ts",
      "test/adversarial/imports.test.ts",
      "test/fuzz/imports.fuzz.test.ts",
    ],
    threshold: 85,
  },
  {
    name: "mcp-config",
    mutate: ["packages/mcp-bridge/src/config-schema.ts", "packages/mcp-bridge/src/expand-vars.ts"],
    tests: [
      "packages/mcp-bridge/src/config-schema*.test.ts",
      "packages/mcp-bridge/src/expand-vars*.test.ts",
      "packages/mcp-bridge/src/expand-keys.test.ts",
      "test/fuzz/mcp-config.fuzz.test.ts",
    ],
    threshold: 85,
  },
  {
    name: "tool-args",
    mutate: [core("tool-arguments.ts"), "packages/engine/src/tool-kit/tool-args.ts"],
    tests: [
      core("tool-arguments.test.ts"),
      "packages/engine/src/tool-kit/tool-args.test.ts",
      "test/fuzz/tool-args.fuzz.test.ts",
    ],
    threshold: 85,
  },
  {
    name: "render",
    mutate: ["packages/render/src/*.ts", "!packages/render/src/*.test.ts", "!packages/render/src/index.ts"],
    tests: ["packages/render/src/*.test.ts", "test/adversarial/processes.test.ts", "test/adversarial/markdown.test.ts"],
    threshold: 85,
  },
  {
    name: "search",
    mutate: [core("search/*.ts"), `!${core("search/*.test.ts")}`],
    tests: [core("search/*.test.ts"), "test/adversarial/skill-search.test.ts"],
    threshold: 80,
  },
];
