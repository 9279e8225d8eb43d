// Skill servers for the consume tests: skillctx's own server (createSkillServer) and the hostile
// fixture (fixtures/skills-mcp/skill-server.mjs), each in its own process, over stdio or HTTP.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startHttpFixture } from "../../packages/mcp-bridge/src/test-utils.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const tsx = pathToFileURL(createRequire(path.join(repo, "packages/skillctx/package.json")).resolve("tsx/esm")).href;
const TSCONFIG = path.join(repo, "test/adversarial/tsconfig.isolated.json");

/** The hostile fixture server script. */
export const FIXTURE_SERVER = path.join(repo, "fixtures/skills-mcp/skill-server.mjs");
const SERVE_SKILLS = path.join(here, "serve-skills.mts");

/** An `mcp` config (as in `.mcp.json`) that runs skillctx's createSkillServer over stdio for `cwd`. */
export function skillctxServerConfig(cwd: string): Record<string, unknown> {
  return {
    command: process.execPath,
    args: ["--import", tsx, SERVE_SKILLS, cwd],
    env: { TSX_TSCONFIG_PATH: TSCONFIG },
  };
}

/** An `mcp` config that runs the fixture server over stdio. */
export function fixtureServerConfig(dir: string, mode = "ok", extra: string[] = []): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER, "--dir", dir, "--mode", mode, ...extra] };
}

/** A server started over HTTP on 127.0.0.1: its URL, and `stop()`. */
export type HttpServerProcess = Awaited<ReturnType<typeof startHttpFixture>>;

/** Starts skillctx's server (`kind: "skillctx"`) or the fixture over HTTP and waits for its URL. */
export async function startHttpServer(
  kind: "skillctx" | "fixture",
  dir: string,
  mode = "ok",
): Promise<HttpServerProcess> {
  // The child inherits this variable: tsx resolves the package sources as vitest does.
  process.env["TSX_TSCONFIG_PATH"] ??= TSCONFIG;
  return kind === "skillctx"
    ? startHttpFixture(SERVE_SKILLS, [dir, "--http"], ["--import", tsx])
    : startHttpFixture(FIXTURE_SERVER, ["--dir", dir, "--mode", mode, "--http"]);
}

/** A skill folder's SKILL.md text. */
export function skillMd(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}
