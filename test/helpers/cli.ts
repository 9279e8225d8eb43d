import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = path.join(ROOT, "packages/skillctx/dist/cli.js");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `skillctx` CLI as a child process with a minimal environment; HOME points at
 * `home` so the real home folder never leaks into a test.
 */
export async function runCli(args: string[], options: { home: string; cwd?: string }): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: options.home, USERPROFILE: options.home },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}
