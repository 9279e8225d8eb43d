import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const tsx = createRequire(path.join(repo, "packages/skillctx/package.json")).resolve("tsx/esm");
const MARK = "\u0000skillctx-isolated-result\u0000";

/** What an isolated run measured. */
export interface IsolatedResult<T = unknown> {
  /** What the script's default export returned (JSON round trip); undefined when it failed. */
  value: T | undefined;
  /** The script threw, crashed or was killed. */
  failed: boolean;
  /** The wall-clock bound passed and the process was killed. */
  timedOut: boolean;
  /** Wall time of the script's own work (import excluded). */
  wallMs: number;
  /** Peak resident memory of the child process, in MiB. */
  maxRssMb: number;
  /** Exit code of the child (null when killed). */
  exitCode: number | null;
  stderr: string;
}

/**
 * Runs `source`, an ES module whose default export is `async (input) => value`, in a fresh Node
 * process (package sources through tsx, resolved like vitest does) and measures it. Adversarial tests
 * state their bounds against these figures: generous, and never in the test runner's own process,
 * so a hostile input that hangs or eats memory fails one test instead of the run.
 */
export async function runIsolated<T = unknown>(
  source: string,
  options: { timeoutMs: number; input?: unknown; maxOldSpaceMb?: number },
): Promise<IsolatedResult<T>> {
  const dir = mkdtempSync(path.join(tmpdir(), "skillctx-isolated-"));
  const script = path.join(dir, "script.mts");
  const runner = path.join(dir, "runner.mts");
  writeFileSync(script, source);
  writeFileSync(
    runner,
    [
      `import run from ${JSON.stringify(pathToFileURL(script).href)};`,
      `const input = JSON.parse(process.env.SKILLCTX_ISOLATED_INPUT ?? "null");`,
      `const started = performance.now();`,
      `let value, failed = false;`,
      `try { value = await run(input); } catch (error) { failed = true; console.error(error); }`,
      `const wallMs = performance.now() - started;`,
      `const maxRssMb = process.resourceUsage().maxRSS / 1024;`,
      `process.stdout.write(${JSON.stringify(MARK)} + JSON.stringify({ value, failed, wallMs, maxRssMb }) + "\\n", () => process.exit(0));`,
    ].join("\n"),
  );
  const args = ["--import", pathToFileURL(tsx).href];
  if (options.maxOldSpaceMb !== undefined) args.push(`--max-old-space-size=${options.maxOldSpaceMb}`);
  args.push(runner);
  try {
    return await new Promise<IsolatedResult<T>>((resolve) => {
      const child = spawn(process.execPath, args, {
        cwd: repo,
        env: {
          ...process.env,
          TSX_TSCONFIG_PATH: path.join(here, "tsconfig.isolated.json"),
          SKILLCTX_ISOLATED_INPUT: JSON.stringify(options.input ?? null),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => {
        if (stderr.length < 64 * 1024) stderr += chunk.toString();
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill("SIGKILL");
      }, options.timeoutMs);
      child.on("close", (exitCode) => {
        clearTimeout(timer);
        const at = stdout.lastIndexOf(MARK);
        const parsed =
          at === -1
            ? undefined
            : (JSON.parse(stdout.slice(at + MARK.length)) as {
                value: T;
                failed: boolean;
                wallMs: number;
                maxRssMb: number;
              });
        resolve({
          value: parsed?.value,
          failed: parsed === undefined || parsed.failed,
          timedOut,
          wallMs: parsed?.wallMs ?? Number.NaN,
          maxRssMb: parsed?.maxRssMb ?? Number.NaN,
          exitCode,
          stderr,
        });
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Asserts that an isolated run finished, did not fail, and stayed within its time and memory bounds; returns its value. */
export function expectBounded<T>(
  result: IsolatedResult<T>,
  bounds: { ms: number; mb: number },
  label = "isolated run",
): T {
  expect(result.timedOut, `${label}: timed out`).toBe(false);
  expect(result.failed, `${label}: ${result.stderr}`).toBe(false);
  expect(result.wallMs, `${label}: wall time (ms)`).toBeLessThan(bounds.ms);
  expect(result.maxRssMb, `${label}: peak RSS (MB)`).toBeLessThan(bounds.mb);
  return result.value as T;
}

/**
 * `script` with each `"@skillctx-src/<package>"` replaced by the URL of that package's source entry, so that an
 * isolated script imports the packages as written in the repository.
 */
export function withPackageSources(script: string): string {
  return script.replaceAll(/"@skillctx-src\/([a-z-]+)"/g, (_, pkg: string) =>
    JSON.stringify(pathToFileURL(path.join(repo, "packages", pkg, "src/index.ts")).href),
  );
}

/**
 * The start of an isolated script that works in a temp repository: `parent` (removed by `done(value)`), `repo`
 * inside it, `put(relative, content)`, `gitInit()` and `gitAdd()`, and the fs functions they use.
 */
export function repoPrelude(prefix: string): string {
  return `
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync, existsSync, symlinkSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
const parent = realpathSync(mkdtempSync(path.join(tmpdir(), ${JSON.stringify(prefix)})));
const repo = path.join(parent, "repo");
mkdirSync(repo);
const put = (relative, content) => {
  const file = path.join(repo, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
};
const gitInit = () => execFileSync("git", ["init", "-q", repo]);
const gitAdd = () => execFileSync("git", ["add", "-A"], { cwd: repo });
const done = (value) => { rmSync(parent, { recursive: true, force: true }); return value; };
`;
}
