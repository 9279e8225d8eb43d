/**
 * What a cold process loads: importing `skillctx` (or `@skillctx/core`) loads none of the heavy
 * dependencies, and each loads on first use only. Runs the BUILT packages in child processes (the root
 * `pnpm test` builds first), with a module hook that logs every module loaded; CommonJS modules required
 * lazily show in the require cache. No timing is asserted: docs/performance.md has the figures.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = (pkg: string) => path.join(ROOT, "packages", pkg, "dist/index.js");
const tempDir = useTempDirs("cold-start");

/** Heavy modules that must wait for first use. */
const HEAVY = {
  mcpSdk: /node_modules\/@modelcontextprotocol\/sdk\//,
  yaml: /node_modules\/yaml\//,
  tokenizer: /node_modules\/gpt-tokenizer\//,
  micromatch: /node_modules\/micromatch\//,
  execa: /node_modules\/execa\//,
  otel: /node_modules\/@opentelemetry\/api\//,
  jsonPatch: /node_modules\/fast-json-patch\//,
  chokidar: /node_modules\/chokidar\//,
  sigstore: /node_modules\/@sigstore\//,
  zod: /node_modules\/zod\//,
  // Search had a stemming library (issue 26); since issue 33 it folds plurals itself and must stay library-free.
  stemmer: /node_modules\/stemmer\//,
};

// Every module URL the ESM loader loads goes to LOG (appended synchronously from the hooks thread).
const HOOKS = `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) { appendFileSync(log, url + "\\n"); return next(url, context); }`;

/**
 * Runs `body` (an ES module body; `dist(pkg)` gives a package's built entry URL) in a fresh node and
 * returns the paths of every module loaded: ESM through the hook, CommonJS from the require cache.
 */
async function loadedBy(body: string): Promise<string[]> {
  const dir = await tempDir();
  const log = path.join(dir, "modules.log");
  const script = await put(
    dir,
    "child.mjs",
    [
      `import { register, createRequire } from "node:module";`,
      `register("data:text/javascript,${encodeURIComponent(HOOKS)}", { data: { log: ${JSON.stringify(log)} } });`,
      `const dist = (pkg) => ${JSON.stringify(`file://${ROOT}packages/`)} + pkg + "/dist/index.js";`,
      body,
      `const cache = createRequire(import.meta.url).cache;`,
      `process.stdout.write(JSON.stringify(Object.keys(cache)));`,
    ].join("\n"),
  );
  const { stdout } = await promisify(execFile)(process.execPath, [script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir },
  });
  const esm = existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "")
    : [];
  return [
    ...esm.map((url) => (url.startsWith("file://") ? fileURLToPath(url) : url)),
    ...(JSON.parse(stdout) as string[]),
  ];
}

const heavyIn = (modules: string[]) =>
  Object.entries(HEAVY)
    .filter(([, pattern]) => modules.some((file) => pattern.test(file)))
    .map(([name]) => name);

describe("a cold import loads no heavy dependency", () => {
  beforeAll(() => {
    for (const pkg of ["skillctx", "engine", "sources", "core", "mcp-bridge"]) {
      if (!existsSync(DIST(pkg))) throw new Error(`${DIST(pkg)} is missing: run \`pnpm build\` first (pnpm test does)`);
    }
  });

  it("import('skillctx') loads skillctx, the engine and core, but not zod, the MCP SDK, yaml, the tokenizer, micromatch or execa", async () => {
    const modules = await loadedBy(`await import(dist("skillctx"));`);
    const built = (pkg: string) => path.join("packages", pkg, "dist");
    expect(modules.some((file) => file.endsWith(path.join(built("skillctx"), "index.js")))).toBe(true);
    // Each package's code is in its own dist only (scripts/build-package.mjs), so the engine's and core's
    // builds load; the packages the engine loads on first use (sources, render, the MCP bridge, compat, the
    // process layer) and the CLI and the server do not.
    const packages = new Set(
      modules.map((file) => /packages\/([a-z-]+)\/dist\//.exec(file)?.[1]).filter((name) => name !== undefined),
    );
    expect([...packages].sort()).toEqual(["core", "engine", "skillctx"]);
    expect(heavyIn(modules)).toEqual([]);
  });

  it("simple frontmatter is read without yaml; other YAML loads it on first use", async () => {
    const simple = await loadedBy(
      `const core = await import(dist("core"));
       const read = core.parseFrontmatter("---\\nname: a\\ndescription: Reads A.\\nmetadata:\\n  team: x\\n---\\nBody\\n");
       if (read.data.metadata.team !== "x") throw new Error("not read");`,
    );
    expect(heavyIn(simple)).toEqual([]);
    const flow = await loadedBy(
      `const core = await import(dist("core"));
       const read = core.parseFrontmatter("---\\nname: a\\ntags: [x, y]\\n---\\nBody\\n");
       if (read.data.tags[1] !== "y") throw new Error("not read");`,
    );
    expect(heavyIn(flow)).toEqual(["yaml"]);
  });

  it("the tokenizer loads when a token count is first read, not when a catalog is built", async () => {
    const catalogOnly = await loadedBy(
      `const core = await import(dist("core"));
       const skill = core.parseSkill("---\\nname: a\\ndescription: Reads A.\\n---\\n", { path: "/x/a/SKILL.md" });
       if (!core.buildCatalog([skill]).text.includes("Reads A.")) throw new Error("no catalog");`,
    );
    expect(heavyIn(catalogOnly)).toEqual([]);
    const counted = await loadedBy(
      `const core = await import(dist("core"));
       if (core.countTokens("hello world") !== 2) throw new Error("miscounted");`,
    );
    expect(heavyIn(counted)).toEqual(["tokenizer"]);
  });

  it("search loads no library: not on a step that offers search_skills, nor on the first search (issues 26, 33)", async () => {
    const skills = await tempDir({ "pdf/SKILL.md": "---\nname: pdf\ndescription: Reads PDF files.\n---\n# PDF\n" });
    const cwd = await tempDir();
    const ctxBody = (search: string) =>
      `const { AgentContext } = await import(dist("skillctx"));
       const ctx = await AgentContext.create({ cwd: ${JSON.stringify(cwd)}, skills: [${JSON.stringify(skills)}], catalog: { search: { tool: "always" } } });
       await ctx.buildContext([{ role: "user", content: "read this pdf" }]);
       ${search}
       await ctx.close();`;
    expect(heavyIn(await loadedBy(ctxBody("")))).not.toContain("stemmer");
    const searched = await loadedBy(
      ctxBody(`const found = await ctx.callTool("search_skills", { query: "read pdf files" });
       if (!found.content.includes("pdf")) throw new Error(found.content);`),
    );
    expect(heavyIn(searched)).not.toContain("stemmer");
  });

  it("AgentContext.create over skills that declare no MCP server leaves the SDK unloaded", async () => {
    const skills = await tempDir({
      "pdf/SKILL.md": "---\nname: pdf\ndescription: Reads PDF files.\n---\n# PDF\n",
      "csv/SKILL.md": "---\nname: csv\ndescription: Reads CSV files.\n---\n# CSV\n",
    });
    const cwd = await tempDir();
    const modules = await loadedBy(
      `const { AgentContext } = await import(dist("skillctx"));
       const ctx = await AgentContext.create({ cwd: ${JSON.stringify(cwd)}, skills: [${JSON.stringify(skills)}] });
       if (ctx.catalog?.included.length !== 2) throw new Error("expected two skills in the catalog");
       await ctx.close();`,
    );
    expect(heavyIn(modules)).toEqual([]);
  });

  it("AgentContext.create and a catalog load neither node:crypto (without the persistent cache) nor node:child_process; a spawn and a step do", async () => {
    const skills = await tempDir({ "pdf/SKILL.md": "---\nname: pdf\ndescription: Reads PDF files.\n---\n# PDF\n" });
    const cwd = await tempDir();
    const builtins = `const loaded = (name) => process.moduleLoadList.includes("NativeModule " + name);`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `${builtins}
         const { AgentContext } = await import(${JSON.stringify(`file://${ROOT}packages/skillctx/dist/index.js`)});
         // The persistent scan cache (on by default) checks its file's SHA-256, so it loads node:crypto: off here.
         const ctx = await AgentContext.create({ cwd: ${JSON.stringify(cwd)}, skills: [${JSON.stringify(skills)}], sources: { persistentCache: false } });
         if (ctx.catalog?.included.length !== 1) throw new Error("expected one skill");
         const created = { crypto: loaded("crypto"), childProcess: loaded("child_process") };
         await ctx.buildContext([{ role: "user", content: "hello" }]);
         const stepped = loaded("crypto");
         const { runProcess } = await import(${JSON.stringify(`file://${ROOT}packages/process/dist/index.js`)});
         await runProcess({ file: process.execPath, args: ["-e", "0"] }, { cwd: process.cwd() });
         await ctx.close();
         process.stdout.write(JSON.stringify({ created, stepped, spawned: loaded("child_process") }));`,
      ],
      { cwd },
    );
    expect(JSON.parse(stdout)).toEqual({
      created: { crypto: false, childProcess: false },
      stepped: true,
      spawned: true,
    });
  });

  it("zod loads when something is first validated: the first step's messages, or the schemas entry", async () => {
    const cwd = await tempDir();
    const step = await loadedBy(
      `const { AgentContext } = await import(dist("skillctx"));
       const ctx = await AgentContext.create({ cwd: ${JSON.stringify(cwd)} });
       const step = await ctx.buildContext([{ role: "user", content: "hello" }]);
       if (step.tools.length === 0 && step.system === undefined) throw new Error("no step");
       await ctx.close();`,
    );
    expect(heavyIn(step)).toEqual(["zod"]);
    const schemas = await loadedBy(
      `const { MessageSchema, SkillSchema } = await import(${JSON.stringify(`file://${ROOT}packages/skillctx/dist/schemas.js`)});
       if (!MessageSchema.safeParse({ role: "user", content: "x" }).success || SkillSchema.safeParse({}).success) throw new Error("schemas");`,
    );
    expect(heavyIn(schemas)).toEqual(["zod"]);
  });
});
