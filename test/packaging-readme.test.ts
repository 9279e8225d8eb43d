/**
 * The newcomer docs agree with the code: the skillctx package README's options table is the one generated
 * from `AgentContextOptions` (so every option and its default is there; the root README links the API
 * reference instead), the Quick start is the two commands CI runs, the Node range is the packages'
 * `engines`, and every relative link points at a file that exists.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { END, START, optionsTable, readOptions, withOptionsTable } from "../scripts/options-reference.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const README = read("README.md");
const PACKAGE_READMES = readdirSync(path.join(ROOT, "packages"))
  .filter((p) => existsSync(path.join(ROOT, "packages", p, "package.json")))
  .map((p) => `packages/${p}/README.md`);

const PACKAGE_README = read("packages/skillctx/README.md");

describe("the options of AgentContext.create in the skillctx package README", () => {
  const rows = readOptions();
  const table = optionsTable(rows);

  it("reads every option of AgentContextOptions, cwd first and required, at most 15 at the top level", () => {
    expect(rows[0]).toMatchObject({ name: "cwd", required: true });
    const top = rows.filter((r) => !r.name.includes("."));
    expect(top.length).toBeLessThanOrEqual(15);
    // Each group is listed option by option: sources.userSkills, tools.filter, conversation.state, ...
    for (const group of ["sources", "catalog", "tools", "subAgents", "conversation", "telemetry"])
      expect(rows.filter((r) => r.name.startsWith(`${group}.`)).length, group).toBeGreaterThanOrEqual(2);
    expect(rows.map((r) => r.name)).toContain("sources.remote.offline");
    expect(rows.length).toBeGreaterThanOrEqual(60);
  });

  it.each(["packages/skillctx/README.md"])(
    "%s has the generated table (node scripts/options-reference.mjs --write)",
    (file) => {
      const text = read(file);
      expect(text).toContain(START);
      expect(withOptionsTable(text, table)).toBe(text);
    },
  );

  it("names each option, with its default where it has one", () => {
    for (const row of rows) {
      expect(PACKAGE_README, row.name).toContain(`| \`${row.name}\` |`);
      if (row.default !== "") expect(PACKAGE_README, row.name).toContain(row.default.replace(/\|/g, "\\|"));
    }
  });

  it("puts the table between its markers only once", () => {
    expect(PACKAGE_README.split(START).length).toBe(2);
    expect(PACKAGE_README.split(END).length).toBe(2);
  });

  it("the root README has no table: it links the API reference", () => {
    expect(README).not.toContain(START);
    expect(README).toContain("](docs/reference.md)");
  });
});

describe("the root README", () => {
  it("keeps the Quick start to the two commands CI runs", () => {
    const quick = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)?.[1];
    expect(quick).toBe(
      "npx -y pnpm@10.34.9 install --frozen-lockfile && npx -y pnpm@10.34.9 demo\nnpx -y pnpm@10.34.9 test\n",
    );
    const ci = read(".ci/run");
    expect(ci).toContain("pnpm install --frozen-lockfile");
    expect(ci).toContain("pnpm demo");
    expect(ci).toContain("pnpm test");
  });

  it("states the Node range of the packages' engines", () => {
    const engines = (JSON.parse(read("packages/skillctx/package.json")) as { engines: { node: string } }).engines.node;
    expect(README).toContain(`\`${engines}\``);
  });

  it("uses the packageManager's pnpm version in every command", () => {
    const version = (JSON.parse(read("package.json")) as { packageManager: string }).packageManager.replace(
      "pnpm@",
      "",
    );
    const used = [...README.matchAll(/pnpm@([\d.]+)/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((v) => v !== version)).toEqual([]);
  });
});

const FIRST_LOOPS = readdirSync(path.join(ROOT, "docs/first-loop")).map((f) => `docs/first-loop/${f}`);

describe.each(["README.md", ...PACKAGE_READMES, "docs/install.md", "docs/reference.md", "docs/cli.md", ...FIRST_LOOPS])(
  "%s",
  (file) => {
    it("links only to files that exist", () => {
      const text = read(file);
      const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((l) => !/^[a-z]+:/.test(l));
      const missing = links.filter((link) => !existsSync(path.resolve(ROOT, path.dirname(file), link)));
      expect(missing).toEqual([]);
    });
  },
);
