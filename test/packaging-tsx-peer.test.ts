/**
 * tsx is an optional peer dependency of @skillctx/engine (the package that runs skill scripts), needed only to run `.ts` skill scripts: found where
 * @skillctx/engine is installed, and when it is missing the script is refused with a result that says how to add
 * it. (The consumer smoke test, scripts/consumer-smoke.sh, runs the same refusal in an install without it.)
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { TSX_MISSING, findTsxCli, scriptRunner } from "../packages/engine/src/tools/run-skill-script.js";

// Resolves as run-skill-script.ts does, from @skillctx/engine's folder, a package that is not installed.
const fromSkillctx = createRequire(new URL("../packages/engine/src/tools/run-skill-script.ts", import.meta.url));
const missingModule = () => fromSkillctx.resolve("@skillctx/no-such-package/cli");
const missingExport = () => fromSkillctx.resolve("tsx/no-such-export");

const skillctxManifest = JSON.parse(
  readFileSync(new URL("../packages/engine/package.json", import.meta.url), "utf8"),
) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

describe("tsx, the optional peer that runs .ts scripts", () => {
  it("is an optional peer dependency of @skillctx/engine, not a dependency", () => {
    expect(skillctxManifest.dependencies?.["tsx"]).toBeUndefined();
    expect(skillctxManifest.peerDependencies?.["tsx"]).toBeDefined();
    expect(skillctxManifest.peerDependenciesMeta?.["tsx"]?.optional).toBe(true);
  });

  it("is found where @skillctx/engine is installed (here: its dev dependency)", () => {
    const cli = findTsxCli();
    expect(cli).toBeDefined();
    expect(existsSync(cli!)).toBe(true);
    expect(findTsxCli()).toBe(cli);
  });

  it("is reported missing, not thrown, when the module does not resolve", () => {
    expect(findTsxCli(missingModule)).toBeUndefined();
    expect(findTsxCli(missingExport)).toBeUndefined();
    expect(() =>
      findTsxCli(() => {
        throw new Error("disk on fire");
      }),
    ).toThrow("disk on fire");
  });

  it("runs .ts, .mts and .cts scripts through node with tsx's CLI first", () => {
    for (const file of ["a.ts", "a.mts", "a.CTS"]) {
      const runner = scriptRunner(file, 0o644, () => "/x/tsx/cli.mjs");
      expect(runner !== undefined && "command" in runner).toBe(true);
      if (runner === undefined || !("command" in runner)) return;
      expect(runner.label).toBe("tsx");
      expect(runner.command("/skill/scripts/a.ts", ["--n", "3"])).toEqual({
        file: process.execPath,
        args: ["/x/tsx/cli.mjs", "/skill/scripts/a.ts", "--n", "3"],
      });
    }
  });

  it("refuses a TypeScript script without tsx, saying how to add it; other scripts do not need it", () => {
    const missing = () => undefined;
    expect(scriptRunner("scripts/a.ts", 0o644, () => findTsxCli(missingModule))).toEqual({ missing: TSX_MISSING });
    expect(TSX_MISSING).toContain("npm install tsx");
    expect(TSX_MISSING).toContain("optional peer dependency of skillctx");
    for (const file of ["a.py", "a.sh", "a.js", "a.mjs", "a.cjs"])
      expect(scriptRunner(file, 0o644, missing)).toHaveProperty("command");
    expect(scriptRunner("a.bin", 0o755, missing)).toHaveProperty("label", "executable");
    expect(scriptRunner("a.txt", 0o644, missing)).toBeUndefined();
  });
});
