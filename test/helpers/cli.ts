import { execFile, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The `skillctx` bin as users run it: it imports the built `@skillctx/cli`. */
export const CLI = path.join(ROOT, "packages/skillctx/bin/skillctx.js");
const BUILT_CLI = path.join(ROOT, "packages/cli/dist/index.js");
export const DEMO = path.join(ROOT, "fixtures/demo-repo");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** HOME (and USERPROFILE) of the child: the real home folder never leaks into a test. */
  home: string;
  /** The child's working folder. @default the repository root */
  cwd?: string;
  /** More environment variables of the child (beside PATH and HOME). */
  env?: Record<string, string>;
  /** Node options before the CLI's script (`--import` of a test hook). */
  nodeArgs?: string[];
}

/** Throws a clear error when the CLI has not been built (the root `pnpm test` builds first). */
export function assertBuilt(): void {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`pnpm build\` first (pnpm test does)`);
}

function childEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: home, USERPROFILE: home };
}

/**
 * Runs the built `skillctx` CLI as a child process with a minimal environment and returns its exit
 * code and both streams, separately.
 */
export async function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [...(options.nodeArgs ?? []), CLI, ...args],
      {
        cwd: options.cwd ?? ROOT,
        env: childEnv(options.home),
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** A CLI child that is still running: its streams so far, and how it ended. */
export interface CliChild {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the child has exited: its code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/** Starts the built CLI without waiting for it (for Ctrl-C and closed-pipe tests); both streams are collected. */
export function startCli(args: string[], options: CliOptions): CliChild {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...childEnv(options.home), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, ms: performance.now() - started }));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The envelope every command's `--json` prints (docs/cli-json.schema.json). */
export interface CliEnvelope {
  command: string;
  version: string;
  data: Record<string, unknown>;
  diagnostics: unknown[];
}

/**
 * Reads a command's `--json` output: checks the envelope (`command`, `version`, `data`, `diagnostics`,
 * nothing else) and returns the command's data with the diagnostics beside it, as tests read them.
 */
export function cliJson<T = any>(stdout: string): T {
  const envelope = JSON.parse(stdout) as CliEnvelope;
  if (
    typeof envelope !== "object" ||
    envelope === null ||
    Object.keys(envelope).join(",") !== "command,version,data,diagnostics" ||
    typeof envelope.command !== "string" ||
    typeof envelope.data !== "object" ||
    !Array.isArray(envelope.diagnostics)
  )
    throw new Error(`not a skillctx --json envelope: ${stdout.slice(0, 200)}`);
  return { ...envelope.data, diagnostics: envelope.diagnostics } as T;
}
