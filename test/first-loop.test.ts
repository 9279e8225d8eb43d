/**
 * The "first loop" pages (docs/first-loop/*.md) and the README's loop, as a reader copies them: each
 * page's files (`Save as` blocks: tsconfig.json, agent.ts) type-check together against the built
 * packages, with the page's own tsconfig, in a new folder; every package the code imports is in the
 * page's `npm install` lines; the page says why `"type": "module"`; and no page, example or README names a
 * model the installed Anthropic SDK warns about (its DEPRECATED_MODELS). Running them, against a local
 * model server, is the consumer smoke test's part (scripts/consumer-smoke.sh --pages; the README's always).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { README_SECTION, firstLoopSteps } from "../scripts/first-loop-steps.mjs";
import type { FirstLoopStep } from "../scripts/first-loop-steps.mjs";
import { ROOT } from "./helpers/cli.js";

const ADAPTERS = readdirSync(path.join(ROOT, "packages/skillctx/src/adapters"));
const PAGES = readdirSync(path.join(ROOT, "docs/first-loop")).filter((f) => f.endsWith(".md"));
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const LOOPS: Array<[string, FirstLoopStep[]]> = [
  ["README.md", firstLoopSteps(read("README.md"), ...README_SECTION)],
  ...PAGES.map((page): [string, FirstLoopStep[]] => [page, firstLoopSteps(read(`docs/first-loop/${page}`))]),
];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const file = (steps: FirstLoopStep[], name: string) =>
  steps.find((s): s is Extract<FirstLoopStep, { kind: "file" }> => s.kind === "file" && s.name === name);

describe("first-loop pages", () => {
  it("one page per framework adapter of skillctx", () => {
    // adapters/<framework>.ts; the helpers beside them (attachments, item-history, ...) are not frameworks.
    const frameworks = ["ai-sdk", "anthropic", "openai", "openai-agents", "langchain", "ag-ui"];
    for (const framework of frameworks) expect(ADAPTERS).toContain(`${framework}.ts`);
    expect(PAGES.map((p) => p.replace(/\.md$/, "")).sort()).toEqual([...frameworks].sort());
  });

  it.each(LOOPS)("%s: a new project with type module, its tsconfig, its agent.ts", (_name, steps) => {
    const shell = steps.filter((s) => s.kind === "sh").map((s) => s.text);
    expect(shell[0]).toMatch(/^mkdir my-agent && cd my-agent\nnpm init -y\nnpm pkg set type=module\n/);
    expect(file(steps, "tsconfig.json")).toBeDefined();
    const agent = file(steps, "agent.ts")!;
    expect(agent.text).toContain("systemPrompt:");
    // Every package agent.ts imports is installed by the page.
    const installs = shell
      .join("\n")
      .match(/^npm install .*$/gm)!
      .join(" ");
    for (const [, specifier] of agent.text.matchAll(/from "([^"]+)"/g)) {
      const name = specifier!.startsWith("@") ? specifier!.split("/").slice(0, 2).join("/") : specifier!.split("/")[0]!;
      expect(name === "skillctx" ? installs.includes("/tmp/skillctx/*.tgz") : installs.includes(name), name).toBe(true);
    }
  });

  it.each(["README.md", ...PAGES.map((p) => `docs/first-loop/${p}`)])("%s says why type module (TS1309)", (page) => {
    expect(read(page)).toContain("TS1309");
  });

  it("every page's files type-check with the page's tsconfig against the built packages", () => {
    const built = path.join(ROOT, "packages/skillctx/dist/index.d.ts");
    expect(existsSync(built), "run `pnpm build` first (pnpm test does)").toBe(true);
    const roots: string[] = [];
    let options: ts.CompilerOptions | undefined;
    for (const [name, steps] of LOOPS) {
      const dir = mkdtempSync(path.join(os.tmpdir(), "skillctx-first-loop-"));
      dirs.push(dir);
      // The reader's node_modules: the workspace's, where the frameworks and the built packages are.
      symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
      // What `npm init -y && npm pkg set type=module` leaves (without it: TS1309 on the top-level await).
      writeFileSync(path.join(dir, "package.json"), '{ "name": "my-agent", "type": "module" }\n');
      for (const step of steps) if (step.kind === "file") writeFileSync(path.join(dir, step.name), step.text);
      const config = ts.getParsedCommandLineOfConfigFile(
        path.join(dir, "tsconfig.json"),
        {},
        {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic: (d) => {
            throw new Error(`${name}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
          },
        },
      )!;
      expect(config.errors, name).toEqual([]);
      options ??= config.options;
      expect(config.options, name).toEqual({ ...options, configFilePath: config.options.configFilePath });
      roots.push(...config.fileNames);
    }
    expect(roots.filter((f) => f.endsWith("agent.ts"))).toHaveLength(LOOPS.length);
    const program = ts.createProgram(roots, { ...options!, configFilePath: undefined });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const where =
        d.file === undefined
          ? ""
          : `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `;
      return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(errors).toEqual([]);
  }, 120_000);
});

describe("model ids in the docs", () => {
  it("name no model the installed Anthropic SDK warns is at its end of life", () => {
    // @anthropic-ai/sdk resources/messages/messages.js: `const DEPRECATED_MODELS = { 'claude-…': 'date', … }`,
    // printed as a warning on every call with one of them.
    const sdk = createRequire(path.join(ROOT, "packages/skillctx/package.json")).resolve("@anthropic-ai/sdk");
    const source = readFileSync(path.join(path.dirname(sdk), "resources/messages/messages.js"), "utf8");
    const table = /const DEPRECATED_MODELS = \{([^}]*)\}/.exec(source)?.[1];
    expect(table).toBeDefined();
    const deprecated = [...table!.matchAll(/'([^']+)':/g)].map((m) => m[1]!);
    expect(deprecated.length).toBeGreaterThan(0);
    const docs = [
      "README.md",
      ...PAGES.map((p) => `docs/first-loop/${p}`),
      ...readdirSync(path.join(ROOT, "examples"))
        .map((f) => `examples/${f}`)
        .filter((f) => /\.(ts|mjs)$/.test(f)),
      "packages/skillctx/README.md",
    ];
    for (const doc of docs)
      for (const model of deprecated)
        expect(read(doc), `${doc}: ${model}`).not.toMatch(new RegExp(`["'\`]${model}["'\`]`));
  });
});
