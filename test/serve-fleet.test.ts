// A short fleet run (slow suite): three `skillctx serve --http` replicas of the BUILT CLI behind a real
// HAProxy (round-robin, no stickiness, /healthz checks), 45 MCP SDK clients and 5 skillctx `{ mcp }`
// source clients with bearer tokens; one replica is killed mid-run and every replica's skills are updated
// on disk mid-run. The figures of a full run come from `node scripts/serve-fleet.mjs --lb haproxy`.
// HAProxy configuration keywords: https://docs.haproxy.org/2.6/configuration.html (balance roundrobin,
// option httpchk, retry-on, option redispatch, option http-buffer-request).
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, expect } from "vitest";
import { assertBuilt, ROOT } from "./helpers/cli.js";
import { describeWithTool, itWithTool } from "./helpers/tools-present.js";

beforeAll(assertBuilt);

interface Figures {
  requestsAfterKill: number;
  failures: number;
  errors: Record<string, number>;
  unauthorizedStatus: number;
  perReplicaRequests: number[];
  clients: { sdk: number; mcpSource: number };
  clientsSawNewDigest: number;
  newDigestSeenWithinMs: { p50: number; max: number };
  statedBoundMs: number;
}

describeWithTool("haproxy")("skillctx serve --http behind HAProxy", () => {
  itWithTool("haproxy")(
    "50 clients through three stateless replicas: no failure when one is killed, every client sees the update within ttlMs + 3 s",
    { timeout: 90_000 },
    async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          path.join(ROOT, "scripts/serve-fleet.mjs"),
          "--lb",
          "haproxy",
          "--seconds",
          "16",
          "--clients",
          "50",
          "--source-clients",
          "5",
          "--skills",
          "10",
          // A pause after each answer keeps 50 clients from saturating two shared cores: this run checks
          // behaviour (no failure, recovery, updates), the full run measures throughput.
          "--think-ms",
          "1000",
          "--json",
        ],
        { maxBuffer: 16 * 1024 * 1024, timeout: 80_000 },
      );
      const figures = JSON.parse(stdout) as Figures;
      expect(figures.unauthorizedStatus).toBe(401);
      expect(figures.failures, JSON.stringify(figures.errors)).toBe(0);
      // Clients kept being answered after the kill (by the two replicas left).
      expect(figures.requestsAfterKill).toBeGreaterThan(0);
      // Round-robin, no stickiness: every replica answered, the one killed early fewer.
      const [r0, r1, r2] = figures.perReplicaRequests as [number, number, number];
      expect(r0).toBeGreaterThan(0);
      expect(r2).toBeGreaterThan(0);
      expect(r1).toBeGreaterThan(0);
      expect(r1).toBeLessThan(Math.min(r0, r2));
      expect(figures.clientsSawNewDigest, JSON.stringify(figures)).toBe(
        figures.clients.sdk + figures.clients.mcpSource,
      );
      expect(figures.newDigestSeenWithinMs.max).toBeLessThanOrEqual(figures.statedBoundMs);
    },
  );
});
