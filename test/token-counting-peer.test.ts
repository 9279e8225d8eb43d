/**
 * Token counts without the optional peer `gpt-tokenizer`: the built `@skillctx/core` alone in a fresh project
 * (no tokenizer beside it) estimates, says so, and refuses `{ exact: true }` with `TOKENIZER_MISSING` naming the
 * package. Runs the BUILT package (`pnpm test` builds first) in a child process. With the peer installed (the
 * workspace), the counts are exact: packages/core/src/tokens.test.ts.
 */
import { execFile } from "node:child_process";
import { cpSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseJson } from "../packages/core/src/json/parse-json.js";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const tempDir = useTempDirs("token-peer");

describe("countTokens without gpt-tokenizer installed", () => {
  it("estimates, reports `estimate`, and refuses exact counts with TOKENIZER_MISSING", async () => {
    const dir = await tempDir();
    const core = path.join(dir, "node_modules/@skillctx/core");
    cpSync(path.join(ROOT, "packages/core/dist"), path.join(core, "dist"), { recursive: true });
    cpSync(path.join(ROOT, "packages/core/package.json"), path.join(core, "package.json"));
    const script = await put(
      dir,
      "count.mjs",
      `import { countTokens, estimateTokens, tokenCounting } from "@skillctx/core";
       const text = "Deploy the service to Kubernetes, then check that every pod is ready.";
       let refused;
       try { countTokens(text, { exact: true }); } catch (error) { refused = { code: error.code, message: error.message }; }
       process.stdout.write(JSON.stringify({ mode: tokenCounting(), count: countTokens(text), estimate: estimateTokens(text), refused }));`,
    );
    // A clean environment, as a user's: under the test runner the child resolved the workspace's tokenizer.
    const { stdout } = await promisify(execFile)(process.execPath, [script], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: dir },
    });
    const result = parseJson(stdout) as {
      mode: string;
      count: number;
      estimate: number;
      refused?: { code: string; message: string };
    };
    expect(result.mode).toBe("estimate");
    expect(result.count).toBe(result.estimate);
    expect(result.count).toBeGreaterThan(10);
    expect(result.refused?.code).toBe("TOKENIZER_MISSING");
    expect(result.refused?.message).toContain("npm install gpt-tokenizer");
  });
});
