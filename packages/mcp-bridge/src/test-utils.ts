// Helpers shared by this package's tests (excluded from the build).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { StdioServerConfig } from "./config-schema.js";
import type { DeclaredServer } from "./types.js";

export { isProcessAlive } from "@skillctx/process/internal";

/** Absolute path of a file under fixtures/mcp. */
export function fixture(file: string): string {
  return fileURLToPath(new URL(`../../../fixtures/mcp/${file}`, import.meta.url));
}

/** A trusted declaration of the stdio fixture server (or another fixture script). */
export function fixtureServer(
  name: string,
  options: {
    script?: string;
    args?: string[];
    config?: Partial<StdioServerConfig>;
    trusted?: boolean;
    skill?: string;
  } = {},
): DeclaredServer {
  const server: DeclaredServer = {
    name,
    config: {
      type: "stdio",
      command: process.execPath,
      args: [fixture(options.script ?? "server.mjs"), "--name", name, ...(options.args ?? [])],
      ...options.config,
    },
    trusted: options.trusted ?? true,
  };
  if (options.skill !== undefined) server.skill = options.skill;
  return server;
}

/** Absolute path of fixtures/adversarial/mcp/misbehaving-server.mjs (a raw JSON-RPC server with a `--mode` of misbehaviour). */
export const MISBEHAVING_SERVER = fileURLToPath(
  new URL("../../../fixtures/adversarial/mcp/misbehaving-server.mjs", import.meta.url),
);

/** Absolute path of fixtures/adversarial/mcp/misbehaving-http-server.mjs (tools `json` and `sse` answer with --bytes). */
export const MISBEHAVING_HTTP_SERVER = fileURLToPath(
  new URL("../../../fixtures/adversarial/mcp/misbehaving-http-server.mjs", import.meta.url),
);

/** A trusted declaration of the misbehaving server in `mode` (see the script's header for the modes). */
export function misbehavingServer(
  name: string,
  mode: string,
  options: { bytes?: number; count?: number; skill?: string } = {},
): DeclaredServer {
  const args = [MISBEHAVING_SERVER, "--mode", mode];
  if (options.bytes !== undefined) args.push("--bytes", String(options.bytes));
  if (options.count !== undefined) args.push("--count", String(options.count));
  const server: DeclaredServer = { name, config: { type: "stdio", command: process.execPath, args }, trusted: true };
  if (options.skill !== undefined) server.skill = options.skill;
  return server;
}

/** Pids of the living (non-zombie) descendants of `pid`, from /proc. */
export function descendants(pid: number = process.pid): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || fields[0] === "X") continue;
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // exited while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** Command line of a process, or undefined once it is gone. */
export function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return undefined;
  }
}

/** Polls until `check` is true; throws after `ms`. */
export async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts fixtures/mcp/http-server.mjs (or another script that prints `LISTENING <url>`) and waits for its URL; `nodeArgs` go before the script. */
export async function startHttpFixture(
  script = fixture("http-server.mjs"),
  args: string[] = [],
  nodeArgs: string[] = [],
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LISTENING (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`http fixture exited with code ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      await exited;
    },
  };
}
