#!/usr/bin/env node
// Fleet figures for `skillctx serve --http` (docs/skills-over-mcp.md, "For a fleet"): 1,000 generated
// skills served by the BUILT CLI in its own process on 127.0.0.1, measured with the MCP SDK's client.
//   - skills/list: every page of the 1,000 skills, per full listing and per page (p50, p99)
//   - skills/get and resources/read of a random skill (p50, p99), against `ping` on the same session
//     (the transport's floor, measured in the same run)
//   - 50 concurrent clients, each its own session, each a bounded loop of requests: throughput
// Run after `pnpm build`:  node scripts/serve-fleet.mjs [--skills 1000] [--clients 50] [--requests 200]
//
// With `--lb haproxy`: the fleet run of scripts/serve-fleet-lb.mjs instead (3 replicas behind HAProxy, 50
// clients, a replica killed and the skills updated mid-run):
//   node scripts/serve-fleet.mjs --lb haproxy [--replicas 3] [--skills 50] [--clients 50] [--source-clients 10]
//                                [--seconds 30] [--ttl-ms 2000] [--think-ms 0] [--json] [--print-config]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CLI, esm, haproxyConfig, runFleet, zodPath } from "./serve-fleet-lb.mjs";

const { Client } = await import(esm("client/index.js"));
const { StreamableHTTPClientTransport } = await import(esm("client/streamableHttp.js"));
const { z } = await import(zodPath());

const { values } = parseArgs({
  options: {
    skills: { type: "string", default: "1000" },
    clients: { type: "string", default: "50" },
    requests: { type: "string", default: "200" },
    json: { type: "boolean" },
    lb: { type: "string" },
    replicas: { type: "string", default: "3" },
    "source-clients": { type: "string", default: "10" },
    seconds: { type: "string", default: "30" },
    "ttl-ms": { type: "string", default: "2000" },
    "think-ms": { type: "string", default: "0" },
    "print-config": { type: "boolean" },
  },
});
if (values.lb !== undefined) {
  if (values.lb !== "haproxy") throw new Error("--lb: only haproxy is supported");
  if (values["print-config"]) {
    process.stdout.write(haproxyConfig(8700, ["127.0.0.1:8701", "127.0.0.1:8702", "127.0.0.1:8703"]));
    process.exit(0);
  }
  const clients = Number(values.clients);
  const sourceClients = Math.min(clients, Number(values["source-clients"]));
  const figures = await runFleet({
    replicas: Number(values.replicas),
    skills: process.argv.includes("--skills") ? Number(values.skills) : 50,
    sdkClients: clients - sourceClients,
    sourceClients,
    seconds: Number(values.seconds),
    ttlMs: Number(values["ttl-ms"]),
    thinkMs: Number(values["think-ms"]),
  });
  if (values.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  else {
    const f = figures;
    console.log(
      `${f.replicas} replicas of skillctx serve --http behind HAProxy (round-robin), ${f.skills} skills, node ${f.node}`,
    );
    console.log(
      `${f.clients.sdk} SDK clients + ${f.clients.mcpSource} { mcp } source clients for ${f.seconds} s (think ${f.thinkMs} ms): ${f.requests} requests, ${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms`,
    );
    console.log(
      `failures ${f.failures} (requests retried once by the client: ${f.retriedOnce}); replica r1 killed (SIGKILL) at ${f.killedReplicaAfterMs} ms, ${f.requestsAfterKill} requests answered after it; requests answered per replica ${f.perReplicaRequests.join(" / ")}`,
    );
    console.log(
      `skills updated on every replica's disk mid-run: ${f.clientsSawNewDigest} of ${f.clients.sdk + f.clients.mcpSource} clients saw the new digest, p50 ${f.newDigestSeenWithinMs.p50} ms, max ${f.newDigestSeenWithinMs.max} ms (stated bound: ttlMs + 3 s = ${f.statedBoundMs} ms); SDK clients max ${f.newDigestSeenWithinMsBy.sdk.max} ms, { mcp } source clients (${f.mcpSourceClientsSawNewDigest} saw it) max ${f.newDigestSeenWithinMsBy.mcpSource.max} ms`,
    );
    if (Object.keys(f.errors).length > 0) console.log(`errors seen: ${JSON.stringify(f.errors)}`);
  }
  process.exit(0);
}
const SKILLS = Number(values.skills);
const CLIENTS = Number(values.clients);
const REQUESTS = Number(values.requests);

// Results are checked loosely here (the tests check the shapes); what matters is the round trip.
const Any = z.object({}).loose();

const base = mkdtempSync(path.join(tmpdir(), "skillctx-fleet-"));
const home = path.join(base, "home");
mkdirSync(home);
for (let i = 0; i < SKILLS; i++) {
  const name = `skill-${String(i).padStart(4, "0")}`;
  const dir = path.join(base, ".agents/skills", name);
  mkdirSync(path.join(dir, "references"), { recursive: true });
  writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: Generated skill ${i} for the fleet benchmark; it does task ${i}.\nmetadata:\n  version: "1.${i}"\n---\n# ${name}\n\n${"Step by step instructions. ".repeat(40)}\nSee references/guide.md.\n`,
  );
  writeFileSync(path.join(dir, "references/guide.md"), `# Guide ${i}\n${"Reference text. ".repeat(100)}\n`);
}

const server = spawn(process.execPath, [CLI, "serve", "--cwd", base, "--no-user", "--http", "0"], {
  env: { PATH: process.env.PATH ?? "", HOME: home },
  stdio: ["ignore", "ignore", "pipe"],
});
let stderr = "";
server.stderr.on("data", (chunk) => (stderr += chunk.toString()));
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 120_000);
  server.stderr.on("data", () => {
    const match = /listening on (http:\/\/\S+)/.exec(stderr);
    if (match !== null) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  server.on("exit", (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
});
const startup = /skillctx serve: (\d+) skills/.exec(stderr)?.[1];

async function connect() {
  const client = new Client({ name: "fleet", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const timed = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
const pct = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const stats = (samples) => ({ n: samples.length, p50: round(pct(samples, 50)), p99: round(pct(samples, 99)) });
const round = (ms) => Math.round(ms * 100) / 100;
const uriOf = (i) => `skill://skill-${String(i).padStart(4, "0")}/SKILL.md`;
const random = () => Math.floor(Math.random() * SKILLS);

try {
  const client = await connect();
  // Warm up (JIT, connection).
  for (let i = 0; i < 50; i++) await client.request({ method: "skills/get", params: { uri: uriOf(random()) } }, Any);

  const pages = [];
  const fullList = [];
  let listed = 0;
  for (let round = 0; round < 30; round++) {
    listed = 0;
    fullList.push(
      await timed(async () => {
        let cursor;
        do {
          let page;
          pages.push(
            await timed(
              async () =>
                (page = await client.request(
                  { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
                  Any,
                )),
            ),
          );
          listed += page.skills.length;
          cursor = page.nextCursor;
        } while (cursor !== undefined);
      }),
    );
  }
  const ping = [];
  const get = [];
  const read = [];
  for (let i = 0; i < 2_000; i++) {
    ping.push(await timed(() => client.ping()));
    get.push(await timed(() => client.request({ method: "skills/get", params: { uri: uriOf(random()) } }, Any)));
    read.push(await timed(() => client.readResource({ uri: uriOf(random()) })));
  }
  await client.close();

  // 50 clients, each its own session, each a bounded loop: skills/get then resources/read of a random skill.
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connect()));
  const underLoad = [];
  let failures = 0;
  const wall = await timed(() =>
    Promise.all(
      clients.map(async (c) => {
        for (let i = 0; i < REQUESTS; i++) {
          const uri = uriOf(random());
          try {
            underLoad.push(
              await timed(() =>
                i % 2 === 0 ? c.request({ method: "skills/get", params: { uri } }, Any) : c.readResource({ uri }),
              ),
            );
          } catch {
            failures++;
          }
        }
      }),
    ),
  );
  await Promise.all(clients.map((c) => c.close()));
  const total = CLIENTS * REQUESTS;

  const figures = {
    node: process.version,
    skillsServed: Number(startup),
    skillsListed: listed,
    pagesPerListing: pages.length / fullList.length,
    listAllPagesMs: stats(fullList),
    listPageMs: stats(pages),
    pingMs: stats(ping),
    getMs: stats(get),
    readMs: stats(read),
    getVsPingP50: round(pct(get, 50) / pct(ping, 50)),
    concurrent: {
      clients: CLIENTS,
      requests: total,
      failures,
      wallMs: round(wall),
      requestsPerSecond: Math.round((total / wall) * 1000),
      perRequestMs: stats(underLoad),
    },
  };
  if (values.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  else {
    const row = (label, s) =>
      `${label.padEnd(34)} p50 ${String(s.p50).padStart(7)} ms   p99 ${String(s.p99).padStart(7)} ms   (n=${s.n})`;
    console.log(`skillctx serve --http on 127.0.0.1, ${figures.skillsServed} skills, node ${figures.node}`);
    console.log(row(`skills/list, all ${figures.pagesPerListing} pages`, figures.listAllPagesMs));
    console.log(row("skills/list, one page (100)", figures.listPageMs));
    console.log(row("skills/get", figures.getMs));
    console.log(row("resources/read (SKILL.md)", figures.readMs));
    console.log(row("ping (transport floor)", figures.pingMs));
    console.log(
      `${CLIENTS} clients x ${REQUESTS} requests: ${total} in ${figures.concurrent.wallMs} ms = ${figures.concurrent.requestsPerSecond} req/s, ${failures} failed; per request p50 ${figures.concurrent.perRequestMs.p50} ms, p99 ${figures.concurrent.perRequestMs.p99} ms`,
    );
  }
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(base, { recursive: true, force: true });
}
