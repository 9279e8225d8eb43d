/**
 * Each package is publish-ready: license and LICENSE file, repository, engines, files, sideEffects, an
 * exports map whose targets the build wrote, no source map without its source, no built file left from a
 * deleted source, and a bin that exists before the build. Reads package.json files and the build.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

interface Manifest {
  name: string;
  private?: boolean;
  license?: string;
  type?: string;
  sideEffects?: boolean;
  engines?: { node?: string };
  repository?: { type?: string; url?: string; directory?: string };
  files?: string[];
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  publishConfig?: { access?: string };
}

const root = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Manifest;
const packages = readdirSync(path.join(ROOT, "packages"))
  .filter((name) => existsSync(path.join(ROOT, "packages", name, "package.json")))
  .map((name) => {
    const dir = path.join(ROOT, "packages", name);
    return {
      folder: name,
      dir,
      manifest: JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest,
    };
  })
  .filter((p) => p.manifest.private !== true);

it("finds the ten packages", () => {
  expect(packages.map((p) => p.manifest.name).sort()).toEqual([
    "@skillctx/cli",
    "@skillctx/compat",
    "@skillctx/core",
    "@skillctx/engine",
    "@skillctx/mcp-bridge",
    "@skillctx/process",
    "@skillctx/render",
    "@skillctx/skills-mcp",
    "@skillctx/sources",
    "skillctx",
  ]);
});

it("has an MIT LICENSE at the root", () => {
  expect(readFileSync(path.join(ROOT, "LICENSE"), "utf8")).toMatch(
    /^MIT License\n\nCopyright \(c\) 2026 skillctx contributors\n/,
  );
});

describe.each(packages.map((p) => [p.manifest.name, p] as const))("%s", (_name, { folder, dir, manifest }) => {
  it("has the metadata a registry shows: MIT license with its file, repository, engines as the root's", () => {
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(path.join(dir, "LICENSE"), "utf8")).toBe(readFileSync(path.join(ROOT, "LICENSE"), "utf8"));
    expect(manifest.repository).toEqual({
      type: "git",
      url: "git+https://github.com/skillctx/skillctx.git",
      directory: `packages/${folder}`,
    });
    expect(manifest.engines).toEqual(root.engines);
    expect(existsSync(path.join(dir, "README.md"))).toBe(true);
  });

  it("is ESM without side effects and ships dist only (plus a bin folder)", () => {
    expect(manifest.type).toBe("module");
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.files).toEqual(manifest.bin === undefined ? ["dist"] : ["dist", "bin"]);
  });

  it("points exports, main and types at files the build wrote, types first", () => {
    const targets: string[] = [manifest.main!, manifest.types!];
    for (const [subpath, entry] of Object.entries(manifest.exports ?? {})) {
      if (typeof entry === "string") {
        targets.push(entry);
        continue;
      }
      expect(Object.keys(entry)[0], subpath).toBe("types");
      targets.push(...Object.values(entry));
    }
    expect(targets.filter((t) => !existsSync(path.join(dir, t)))).toEqual([]);
  });

  it("ships no source map (their sources are not shipped) and no built file whose source is gone", () => {
    const dist = path.join(dir, "dist");
    const built = readdirSync(dist, { recursive: true, encoding: "utf8" });
    expect(built.filter((f) => f.endsWith(".map"))).toEqual([]);
    // Declarations mirror src/ file by file; JavaScript is one bundle per entry point plus the
    // bundler's shared and lazily loaded chunks under chunks/ (scripts/build-package.mjs).
    const source = (f: string, ext: RegExp) => existsSync(path.join(dir, "src", f.replace(ext, ".ts")));
    const orphans = [
      ...built.filter((f) => f.endsWith(".d.ts") && !source(f, /\.d\.ts$/)),
      ...built.filter((f) => f.endsWith(".js") && !f.startsWith(`chunks${path.sep}`) && !source(f, /\.js$/)),
    ];
    expect(orphans).toEqual([]);
    expect(
      built.filter((f) => f.endsWith(".js") && !f.startsWith(`chunks${path.sep}`) && f.includes(path.sep)),
    ).toEqual([]);
  });

  it("has bins that exist before any build, are executable and start with a node shebang", () => {
    for (const file of Object.values(manifest.bin ?? {})) {
      expect(file.startsWith("./dist/"), file).toBe(false);
      const full = path.join(dir, file);
      expect(readFileSync(full, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
      expect(statSync(full).mode & 0o111).not.toBe(0);
    }
  });

  it("depends on workspace packages with workspace:* (pnpm pack writes the version)", () => {
    const internal = Object.entries(manifest.dependencies ?? {}).filter(([name]) =>
      packages.some((p) => p.manifest.name === name),
    );
    expect(internal.filter(([, range]) => range !== "workspace:*")).toEqual([]);
  });

  it("publishes public (a scoped package's first publish is restricted otherwise)", () => {
    if (manifest.name.startsWith("@")) expect(manifest.publishConfig?.access).toBe("public");
  });

  it("bounds every peer range above (no open-ended >=)", () => {
    for (const [name, range] of Object.entries(manifest.peerDependencies ?? {}))
      expect({ name, bounded: /^\^|<\d/.test(range) }).toEqual({ name, bounded: true });
  });

  it("refuses to pack with npm while workspace: ranges are in package.json; pnpm may (it rewrites them)", () => {
    expect(manifest.scripts?.prepack).toBe("node ../../scripts/publish-guard.mjs");
    const guard = (agent: string) =>
      spawnSync(process.execPath, [path.join(ROOT, "scripts/publish-guard.mjs")], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, npm_config_user_agent: agent },
      });
    const hasWorkspaceRanges = Object.values(manifest.dependencies ?? {}).some((r) => r.startsWith("workspace:"));
    const byNpm = guard("npm/11.6.0 node/v20.19.0 linux x64 workspaces/false");
    expect(byNpm.status).toBe(hasWorkspaceRanges ? 1 : 0);
    if (hasWorkspaceRanges) expect(byNpm.stderr).toContain(`${manifest.name}: refusing to pack`);
    expect(guard("pnpm/10.34.9 npm/? node/v20.19.0 linux x64").status).toBe(0);
  });
});
