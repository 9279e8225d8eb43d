import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach } from "vitest";
import { ROOT } from "./cli.js";

/** The stdio MCP fixture server that `${MCP_FIXTURE}` stands for in the convention fixtures. */
export const MCP_SERVER = path.join(ROOT, "fixtures/mcp/server.mjs");

// Files of the fixtures that name the MCP fixture server.
const MCP_FILES = [".mcp.json", ".cursor/mcp.json", ".agents/skills/release/agents/openai.yaml"];

/**
 * Copies `fixtures/conventions/<name>` into a fresh temp folder (removed after each test), replaces
 * `${MCP_FIXTURE}` with the fixture server's path, and with `git` makes it a git repository (so that
 * its root is the project root whatever the cwd below it). Returns the copy's real path.
 */
export function useConventionFixtures(): (name: string, options?: { git?: boolean }) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async (name, options = {}) => {
    const parent = await realpath(await mkdtemp(path.join(tmpdir(), `skillctx-conventions-${name}-`)));
    made.push(parent);
    const repo = path.join(parent, "repo");
    await cp(path.join(ROOT, "fixtures/conventions", name), repo, { recursive: true });
    for (const relative of MCP_FILES) {
      const file = path.join(repo, relative);
      const text = await readFile(file, "utf8").catch(() => undefined);
      if (text !== undefined) await writeFile(file, text.replaceAll("${MCP_FIXTURE}", MCP_SERVER));
    }
    if (options.git === true) await promisify(execFile)("git", ["init", "-q", repo]);
    return repo;
  };
}
