// `skillctx serve --http` as a fleet: N stateless replicas of the BUILT CLI, each serving its own copy of
// the skills (its own disk, its own watcher), behind HAProxy (round-robin, no stickiness, /healthz checks),
// bearer tokens on every request. Clients: the MCP SDK's client and skillctx's own `{ mcp }` source.
// Mid-run one replica is killed (SIGKILL) and the skills are updated on every replica's disk; the run
// reports requests/s, p50/p99, failures, when each client first saw the new digest, and per-replica counts.
// Used by `node scripts/serve-fleet.mjs --lb haproxy` and by test/serve-fleet.test.ts (a short run).
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The built `skillctx` bin. */
export const CLI = path.join(ROOT, "packages/skillctx/bin/skillctx.cjs");
const require = createRequire(path.join(ROOT, "packages/skills-mcp/package.json"));
/** zod as the skill server resolves it. */
export const zodPath = () => require.resolve("zod");
/** The MCP SDK's ES module file for `module` (`client/index.js`, ...), as the skill server resolves the SDK. */
export const esm = (module) =>
  require
    .resolve(`@modelcontextprotocol/sdk/${module}`)
    .replace(`${path.sep}cjs${path.sep}`, `${path.sep}esm${path.sep}`);

/** The HAProxy configuration of the run (also printed by `--print-config`, and quoted in docs/skills-over-mcp.md). */
export function haproxyConfig(port, backends) {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  # A busy replica is slow, not down: a health check may take this long.
  timeout check 5s
  # A replica that dies or drains mid-request: the request goes to another one.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout 503
  option http-buffer-request

frontend skills
  bind 127.0.0.1:${port}
  default_backend replicas

backend replicas
  balance roundrobin
  option httpchk GET /healthz
  http-check expect status 200
  default-server inter 1s fall 3 rise 2
${backends.map((b, i) => `  server r${i} ${b} check`).join("\n")}
`;
}

const SKILL = (i, version) => {
  const name = `skill-${String(i).padStart(4, "0")}`;
  return {
    name,
    md: `---\nname: ${name}\ndescription: Generated skill ${i} for the fleet run; it does task ${i}.\nmetadata:\n  version: "${version}"\n---\n# ${name} v${version}\n\n${"Step by step instructions. ".repeat(20)}\n`,
  };
};
const digestOf = (text) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const pct = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round = (ms) => Math.round(ms * 100) / 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// p50 and max of the times clients first saw the new digest (those that did).
const within = (times) => {
  const saw = times.filter((v) => v !== undefined);
  return { p50: round(pct(saw, 50)), max: round(Math.max(0, ...saw)) };
};

function writeSkills(dir, count, version) {
  for (let i = 0; i < count; i++) {
    const { name, md } = SKILL(i, version);
    mkdirSync(path.join(dir, ".agents/skills", name), { recursive: true });
    // Only skill 0 changes in an update: one new digest to look for.
    if (version === 1 || i === 0) writeFileSync(path.join(dir, ".agents/skills", name, "SKILL.md"), md);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function startReplica(cwd, home, env, ttlMs) {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--cwd", cwd, "--no-user", "--http", "0", "--token-env", "FLEET_TOKENS", "--ttl-ms", String(ttlMs)],
    { env: { PATH: process.env.PATH ?? "", HOME: home, ...env }, stdio: ["ignore", "ignore", "pipe"] },
  );
  const replica = { child, stderr: "", url: undefined, exited: false };
  child.stderr.on("data", (chunk) => (replica.stderr += chunk.toString()));
  child.on("exit", () => (replica.exited = true));
  replica.ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica did not start: ${replica.stderr}`)), 60_000);
    child.stderr.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(replica.stderr);
      if (match !== null && replica.url === undefined) {
        replica.url = match[1];
        clearTimeout(timer);
        resolve(replica);
      }
    });
    child.on("exit", (code) => reject(new Error(`replica exited ${code}: ${replica.stderr}`)));
  });
  return replica;
}

async function until(check, ms, what) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Runs the fleet for `seconds` and returns its figures. Options: replicas, skills, sdkClients,
 * sourceClients, seconds, ttlMs, thinkMs (an SDK client's pause after each answer; 0: a closed loop at full
 * speed), haproxy (the program).
 */
export async function runFleet(options) {
  const { replicas: n, skills: skillCount, sdkClients, sourceClients, seconds, ttlMs } = options;
  const thinkMs = options.thinkMs ?? 0;
  const { Client } = await import(esm("client/index.js"));
  const { StreamableHTTPClientTransport } = await import(esm("client/streamableHttp.js"));
  const { AgentContext } = await import(pathToFileURL(path.join(ROOT, "packages/skillctx/dist/index.js")).href);
  const { z } = await import(zodPath());
  const Any = z.object({}).loose();

  const base = mkdtempSync(path.join(tmpdir(), "skillctx-fleet-lb-"));
  const home = path.join(base, "home");
  mkdirSync(home);
  const token = randomBytes(24).toString("base64url");
  // Two tokens, as during a rotation: the old one still works, clients use the new one.
  const env = { FLEET_TOKENS: `${randomBytes(24).toString("base64url")},${token}` };
  const dirs = Array.from({ length: n }, (_, i) => path.join(base, `replica-${i}`));
  for (const dir of dirs) writeSkills(dir, skillCount, 1);
  const oldDigest = digestOf(SKILL(0, 1).md);
  const newDigest = digestOf(SKILL(0, 2).md);

  const replicas = dirs.map((dir) => startReplica(dir, home, env, ttlMs));
  let haproxy;
  const contexts = [];
  try {
    await Promise.all(replicas.map((r) => r.ready));
    const port = await freePort();
    const config = haproxyConfig(
      port,
      replicas.map((r) => new URL(r.url).host),
    );
    const cfgFile = path.join(base, "haproxy.cfg");
    writeFileSync(cfgFile, config);
    haproxy = spawn(options.haproxy ?? "haproxy", ["-f", cfgFile, "-db"], { stdio: ["ignore", "ignore", "pipe"] });
    let haproxyErr = "";
    haproxy.stderr.on("data", (c) => (haproxyErr += c.toString()));
    const lb = `http://127.0.0.1:${port}/mcp`;
    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200,
      20_000,
      `haproxy: ${haproxyErr}`,
    );
    const auth = { authorization: `Bearer ${token}` };
    const unauthorized = (await fetch(lb, { method: "POST", body: "{}" })).status;

    const latencies = [];
    let killedAt;
    let afterKill = 0;
    let failures = 0;
    let retried = 0;
    const errors = new Map();
    const seen = [];
    let updatedAt;
    let stop = false;
    const started = performance.now();
    const note = (error) => {
      const key = String(error?.message ?? error).slice(0, 120);
      errors.set(key, (errors.get(key) ?? 0) + 1);
    };
    // One request, retried once on failure (what a client does when a replica dies under it).
    const attempt = async (fn) => {
      const t0 = performance.now();
      try {
        const value = await fn();
        latencies.push(performance.now() - t0);
        if (killedAt !== undefined && t0 > killedAt) afterKill++;
        return value;
      } catch (error) {
        note(error);
        retried++;
        try {
          const value = await fn();
          latencies.push(performance.now() - t0);
          return value;
        } catch (again) {
          note(again);
          failures++;
          return undefined;
        }
      }
    };
    const random = () => Math.floor(Math.random() * skillCount);
    const uriOf = (i) => `skill://${SKILL(i, 1).name}/SKILL.md`;
    const sawNew = (who) => {
      if (updatedAt !== undefined && seen[who] === undefined) seen[who] = performance.now() - updatedAt;
    };

    const sdk = async (who) => {
      const client = new Client({ name: `fleet-${who}`, version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(lb), { requestInit: { headers: auth } }));
      let listedAt = 0;
      for (let i = 0; !stop; i++) {
        if (performance.now() - listedAt >= ttlMs) {
          listedAt = performance.now();
          const entry = await attempt(() => client.request({ method: "skills/get", params: { uri: uriOf(0) } }, Any));
          if (entry?.skill?.resources?.[0]?.digest === newDigest) sawNew(who);
          continue;
        }
        const uri = uriOf(random());
        await attempt(() =>
          i % 2 === 0 ? client.request({ method: "skills/get", params: { uri } }, Any) : client.readResource({ uri }),
        );
        if (thinkMs > 0) await sleep(thinkMs);
      }
      await client.close().catch(() => {});
    };

    const source = async (who) => {
      const cwd = path.join(base, `client-${who}`);
      mkdirSync(cwd);
      const ctx = await AgentContext.create({
        cwd,
        guidance: false,
        sources: {
          homeDir: home,
          userSkills: false,
          watch: true,
          remote: { lock: "off", cacheDir: path.join(cwd, ".cache") },
        },
        skills: [{ mcp: { url: lb, headers: auth }, name: "fleet", ttlMs }],
      });
      contexts.push(ctx);
      while (!stop) {
        await attempt(() => ctx.buildContext([]));
        const skill = ctx.skills.find((s) => s.name === SKILL(0, 1).name);
        if (skill?.source.path !== undefined && digestOf(readFileSync(skill.source.path)) === newDigest) sawNew(who);
        await sleep(250);
      }
    };

    const who = [
      ...Array.from({ length: sdkClients }, (_, i) => () => sdk(i)),
      ...Array.from({ length: sourceClients }, (_, i) => () => source(sdkClients + i)),
    ];
    const running = who.map((run) => run().catch((error) => (note(error), failures++)));
    const killAt = seconds * 0.3;
    const updateAt = seconds * 0.5;
    await sleep(killAt * 1000);
    const killed = replicas[1];
    killed.child.kill("SIGKILL");
    killedAt = performance.now();
    const killedAfterMs = round(performance.now() - started);
    await sleep((updateAt - killAt) * 1000);
    // Every replica's own disk gets the new version (a git pull on each machine); the dead one too.
    for (const dir of dirs) writeSkills(dir, skillCount, 2);
    updatedAt = performance.now();
    await sleep((seconds - updateAt) * 1000);
    stop = true;
    await Promise.all(running);
    const wallMs = performance.now() - started;

    const perReplica = replicas.map((r) => (r.stderr.match(/ POST \/mcp 200 /g) ?? []).length);
    const sawAll = seen.filter((v) => v !== undefined).length;
    const sawSource = seen.slice(sdkClients).filter((v) => v !== undefined).length;
    return {
      node: process.version,
      replicas: n,
      skills: skillCount,
      clients: { sdk: sdkClients, mcpSource: sourceClients },
      seconds,
      ttlMs,
      thinkMs,
      unauthorizedStatus: unauthorized,
      requests: latencies.length,
      requestsPerSecond: Math.round((latencies.length / wallMs) * 1000),
      p50Ms: round(pct(latencies, 50)),
      p99Ms: round(pct(latencies, 99)),
      failures,
      retriedOnce: retried,
      errors: Object.fromEntries(errors),
      killedReplicaAfterMs: killedAfterMs,
      requestsAfterKill: afterKill,
      perReplicaRequests: perReplica,
      digestChanged: oldDigest !== newDigest,
      clientsSawNewDigest: sawAll,
      mcpSourceClientsSawNewDigest: sawSource,
      newDigestSeenWithinMs: within(seen),
      newDigestSeenWithinMsBy: { sdk: within(seen.slice(0, sdkClients)), mcpSource: within(seen.slice(sdkClients)) },
      statedBoundMs: ttlMs + 3_000,
    };
  } finally {
    await Promise.allSettled(contexts.map((c) => c.close()));
    haproxy?.kill("SIGTERM");
    for (const r of replicas) if (!r.exited) r.child.kill("SIGTERM");
    await Promise.all(
      [haproxy, ...replicas.map((r) => r.child)]
        .filter((c) => c !== undefined && c.exitCode === null && c.signalCode === null)
        .map((c) => new Promise((resolve) => c.once("exit", resolve))),
    );
    rmSync(base, { recursive: true, force: true });
  }
}
