/**
 * Authentication of `skillctx serve --http` fails closed (issue 35, item 1): every way a token list is
 * given (a token file, an environment variable, the library's `auth` option) goes through one check, and
 * a configuration that names no usable token refuses to start (exit 2, a clear message), never "no
 * tokens, so no authentication". The break: `--token-env X` with X set to `,` started an open server
 * that answered an unauthenticated `initialize` with 200. Each case runs the BUILT CLI and, if it ever
 * listens, sends it a real unauthenticated `initialize`, which must not be answered 200.
 * Bearer tokens: MCP authorization 2025-06-18 ("Access Token Usage"),
 * https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/specification/2025-06-18/basic/authorization.mdx
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SkillctxError } from "../../packages/core/src/errors.js";
import { useTempDirs } from "../../packages/core/src/testing/temp-dir.js";
import { createSkillServer } from "../../packages/skills-mcp/src/server.js";
import { serveSkillsHttp } from "../../packages/skills-mcp/src/http.js";
import type { HttpAuthOptions } from "../../packages/skills-mcp/src/http-auth.js";
import { assertBuilt, startCli } from "../helpers/cli.js";
import { MCP_HEADERS, rawRequest, rpc, writeSkills } from "../helpers/serve-http.js";

const tempDir = useTempDirs("adv-serve-auth");
beforeAll(assertBuilt);

const INITIALIZE = rpc("initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "attacker", version: "1" },
});

// Starts `serve --http 0 <args>`; when it listens, an unauthenticated initialize is sent. Returns the exit
// code, stderr, and the status that initialize got (undefined when the server never listened).
async function attempt(args: string[], env: Record<string, string> = {}) {
  const home = await tempDir();
  const repo = writeSkills(await tempDir(), 1);
  const cli = startCli(["serve", "--cwd", repo, "--no-user", "--http", "0", ...args], { home, env });
  let status: number | undefined;
  for (let i = 0; i < 600 && cli.child.exitCode === null; i++) {
    const match = /listening on (http:\/\/\S+)/.exec(cli.stderr());
    if (match !== null) {
      status = (await rawRequest(match[1]!, { headers: MCP_HEADERS, body: INITIALIZE })).status;
      cli.child.kill("SIGTERM");
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const { code } = await cli.exited;
  return { code, status, stderr: cli.stderr() };
}

describe("serve --http authentication fails closed", () => {
  it.each([",", " , ", ",,,", " \t,\n, "])(
    "--token-env holding only separators (%j) refuses to start: exit 2, no listener",
    async (value) => {
      const run = await attempt(["--token-env", "SKILLCTX_T"], { SKILLCTX_T: value });
      expect({ code: run.code, initialize: run.status }).toEqual({ code: 2, initialize: undefined });
      expect(run.stderr).toMatch(/--token-env SKILLCTX_T: no token/);
      expect(run.stderr).not.toMatch(/listening on/);
    },
  );

  it("a token file of comments and blank lines only refuses to start, even beside a usable variable", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "tokens");
    writeFileSync(file, "# rotate monthly\n\n   \n# nothing here\n");
    const alone = await attempt(["--token-file", file]);
    expect({ code: alone.code, initialize: alone.status }).toEqual({ code: 2, initialize: undefined });
    expect(alone.stderr).toMatch(/no token in the file/);
    // One source giving tokens does not excuse another that names none: a misconfiguration, refused.
    const mixed = await attempt(["--token-file", file, "--token-env", "SKILLCTX_T"], { SKILLCTX_T: "good-token" });
    expect({ code: mixed.code, initialize: mixed.status }).toEqual({ code: 2, initialize: undefined });
    const badEnv = await attempt(["--token-env", "SKILLCTX_T"], { SKILLCTX_T: "good-token, ," });
    expect(badEnv.status, "a usable token among separators serves, authenticated").toBe(401);
  });

  it("a token that is not a b64token refuses to start with exit 2 (the library's one check, as a usage error)", async () => {
    const run = await attempt(["--token-env", "SKILLCTX_T"], { SKILLCTX_T: "ok-token bad\u00e9token" });
    expect({ code: run.code, initialize: run.status }).toEqual({ code: 2, initialize: undefined });
    expect(run.stderr).toMatch(/b64token/);
    expect(run.stderr).not.toContain("bad\u00e9token");
  });

  it("the library refuses every auth that names no usable token with INVALID_OPTIONS, before listening", async () => {
    const skills = await createSkillServer({
      cwd: writeSkills(await tempDir(), 1),
      context: { sources: { userSkills: false } },
    });
    try {
      const hostile: unknown[] = [
        {},
        { tokens: [] },
        { tokens: undefined, verify: undefined },
        { tokens: [""] },
        { tokens: [" "] },
        { tokens: [","] },
        { tokens: "secret" },
        { tokens: [], verify: "yes" },
        { tokens: [], resourceMetadata: { resource: "https://x.example/mcp", authorizationServers: ["https://a"] } },
        null,
        "token",
      ];
      for (const auth of hostile) {
        const started = serveSkillsHttp(skills, { port: 0, auth: auth as HttpAuthOptions });
        const error = await started.then(
          async (http) => {
            await http.close();
            return undefined;
          },
          (e: unknown) => e,
        );
        expect(SkillctxError.isInstance(error), JSON.stringify(auth)).toBe(true);
        expect((error as SkillctxError).code).toBe("INVALID_OPTIONS");
        expect((error as Error).message).not.toContain("\n");
      }
    } finally {
      await skills.close();
    }
  });
});
