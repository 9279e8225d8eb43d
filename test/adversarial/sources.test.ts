// Hostile git and well-known URL sources, each run in a separate process (runIsolated): a source that
// hangs, floods or tries to run a program fails one test instead of the run. Bounds are generous.
import { describe, expect, it } from "vitest";
import { describeWithTool } from "../helpers/tools-present.js";
import { expectBounded, runIsolated } from "./isolated.js";

const PRELUDE = `
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createGzip, gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
const temp = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-sources-")));
const sha = (b) => "sha256:" + createHash("sha256").update(b).digest("hex");
const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
async function serve(handler) {
  const server = createServer(handler);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { base: "http://127.0.0.1:" + server.address().port, close: () => { server.closeAllConnections(); server.close(); } };
}
// Every file below a folder, as relative paths (to look for leftovers).
function files(dir) {
  const out = [];
  const visit = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) visit(p); else out.push(path.relative(dir, p)); } };
  if (existsSync(dir)) visit(dir);
  return out;
}
`;

const isolated = <T>(source: string, seconds: number) =>
  runIsolated<T>(PRELUDE + source, { timeoutMs: seconds * 1000 + 20_000 });
const report = (ms: number, mb: number) =>
  console.info(`${expect.getState().currentTestName ?? "?"}: ${Math.round(ms)} ms, ${Math.round(mb)} MB`);

describeWithTool("git")("git sources (separate process)", () => {
  it("a ref or URL that git would read as an option, ext:: and other transports, and an insteadOf rewrite to ext:: never run a program (< 30 s, < 400 MB)", async () => {
    interface Out {
      codes: string[][];
      pwned: string[];
    }
    const run = await isolated<Out>(
      `
import { resolveGitSource } from "@skillctx/sources/git-source";
export default async () => {
  const work = path.join(temp, "work");
  mkdirSync(work);
  const git = (...a) => execFileSync("git", a, { cwd: work, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q", "-b", "main"); writeFileSync(path.join(work, "SKILL.md"), "---\\nname: w\\ndescription: d\\n---\\n"); git("add", "-A"); git("commit", "-q", "-m", "x");
  const url = pathToFileURL(work).href;
  const pwn = (n) => path.join(temp, "PWNED" + n);
  const cacheDir = path.join(temp, "cache");
  const sources = [
    { git: url, ref: "--upload-pack=touch " + pwn(1) },
    { git: "--upload-pack=touch " + pwn(2) },
    { git: "ext::sh -c touch% " + pwn(3) },
    { git: "fd::7" },
    { git: url, ref: "main:refs/heads/evil" },
    { git: "ssh://-oProxyCommand=touch%20" + pwn(4) + "/r" },
    { git: "-oProxyCommand=touch " + pwn(5) + ":r" },
  ];
  const codes = [];
  for (const source of sources) codes.push((await resolveGitSource(source, { cacheDir })).diagnostics.map((d) => d.code));
  // The user's git config rewrites an https URL to ext::: git itself refuses the transport.
  const home = path.join(temp, "home");
  mkdirSync(home);
  writeFileSync(path.join(home, ".gitconfig"), '[url "ext::sh -c touch% ' + pwn(6) + ' #"]\\n\\tinsteadOf = https://evil.example/\\n');
  process.env.HOME = home;
  codes.push((await resolveGitSource({ git: "https://evil.example/repo.git" }, { cacheDir, timeoutMs: 20000 })).diagnostics.map((d) => d.code));
  const pwned = readdirSync(temp).filter((n) => n.startsWith("PWNED")).concat(readdirSync(work).filter((n) => n.startsWith("PWNED")));
  rmSync(temp, { recursive: true, force: true });
  return { codes, pwned };
};
`,
      30,
    );
    const out = expectBounded(run, { ms: 30_000, mb: 400 });
    report(run.wallMs, run.maxRssMb);
    expect(out.pwned).toEqual([]);
    expect(out.codes.slice(0, 7).every((codes) => codes.length === 1 && codes[0] === "GIT_SOURCE_INVALID")).toBe(true);
    // The rewritten URL reaches git, which refuses the ext transport: the remote is unreachable and nothing is cached.
    expect(out.codes[7]).toEqual(["GIT_UNREACHABLE", "GIT_NOT_CACHED"]);
  });

  it("a repository's symlink to /etc/passwd in a skill folder is not followed by digests, discovery or read_skill_resource (< 30 s, < 400 MB)", async () => {
    interface Out {
      files: string[];
      diagnostics: string[];
      read: { isError: boolean; text: string };
      body: string;
    }
    const run = await isolated<Out>(
      `
import { AgentContext } from "skillctx";
import { listSkillFiles } from "@skillctx/core/internal";
import { resolveGitSource } from "@skillctx/sources/git-source";
export default async () => {
  const work = path.join(temp, "work");
  mkdirSync(path.join(work, "evil"), { recursive: true });
  const git = (...a) => execFileSync("git", a, { cwd: work, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q", "-b", "main");
  writeFileSync(path.join(work, "evil/SKILL.md"), "---\\nname: evil\\ndescription: d\\n---\\nRead passwd.\\n");
  symlinkSync("/etc/passwd", path.join(work, "evil/passwd"));
  symlinkSync("/etc", path.join(work, "evil/etc"));
  git("add", "-A"); git("commit", "-q", "-m", "x");
  const cacheDir = path.join(temp, "cache");
  const resolved = await resolveGitSource({ git: pathToFileURL(work).href }, { cacheDir });
  const listing = await listSkillFiles(resolved.skills[0].dir);
  const project = path.join(temp, "project"); mkdirSync(project);
  const ctx = await AgentContext.create({ cwd: project, sources: { userSkills: false, remote: { cacheDir, lock: "off" } }, guidance: false, skills: [{ git: pathToFileURL(work).href }] });
  const read = await ctx.callTool("read_skill_resource", { name: "evil", path: "passwd" });
  const loaded = await ctx.callTool("load_skill", { name: "evil" });
  await ctx.close();
  rmSync(temp, { recursive: true, force: true });
  const text = (r) => JSON.stringify(r.content ?? r);
  return { files: listing.files.map((f) => f.path), diagnostics: resolved.diagnostics.map((d) => d.code), read: { isError: read.isError === true, text: text(read) }, body: text(loaded) };
};
`,
      30,
    );
    const out = expectBounded(run, { ms: 30_000, mb: 400 });
    report(run.wallMs, run.maxRssMb);
    expect(out.files).toEqual(["SKILL.md"]);
    expect(out.diagnostics).toContain("PATH_OUTSIDE_ROOT");
    expect(out.read.isError).toBe(true);
    expect(out.read.text).not.toContain("root:");
    expect(out.body).not.toContain("root:x:0");
  });
});

describe("well-known URL sources (separate process)", () => {
  it("a 1 GB SKILL.md is cut at the cap, a gzip bomb at the unpacked cap, without holding either in memory (< 60 s, < 600 MB)", async () => {
    interface Out {
      huge: string[];
      bomb: string[];
      sentMb: number;
      cached: string[];
    }
    const run = await isolated<Out>(
      `
import { resolveUrlSource } from "@skillctx/sources/url-source";
export default async () => {
  let sent = 0;
  // 512 MiB of zeros, gzipped a MiB at a time: the fixture holds only the ~0.5 MB it sends, so the process's
  // peak memory is the code under test's (gzipSync of one 512 MiB buffer held 512 MiB here by itself).
  const gz = createGzip();
  const parts = [];
  gz.on("data", (part) => parts.push(part));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 512; i++) if (!gz.write(zeros)) await new Promise((r) => gz.once("drain", r));
  gz.end();
  await new Promise((r) => gz.once("end", r));
  const bomb = Buffer.concat(parts);
  const chunk = Buffer.alloc(1024 * 1024, 97);
  const site = await serve((req, res) => {
    if (req.url.endsWith("index.json")) {
      return res.end(JSON.stringify({ $schema: SCHEMA, skills: [
        { name: "huge", type: "skill-md", description: "d", url: "huge.md", digest: sha("x") },
        { name: "bomb", type: "archive", description: "d", url: "bomb.tar.gz", digest: sha(bomb) },
      ] }));
    }
    if (req.url.endsWith("bomb.tar.gz")) return res.end(bomb);
    // 1 GB, streamed without a content-length, until the client hangs up.
    res.writeHead(200, { "content-type": "text/markdown" });
    const pump = () => { while (sent < 1024 ** 3) { sent += chunk.length; if (!res.write(chunk)) return res.once("drain", pump); } res.end(); };
    res.on("close", () => { sent = Math.max(sent, 0); });
    pump();
  });
  const cacheDir = path.join(temp, "cache");
  const result = await resolveUrlSource({ url: site.base }, { cacheDir });
  site.close();
  const out = {
    huge: result.diagnostics.filter((d) => d.message.includes("huge")).map((d) => d.code),
    bomb: result.diagnostics.filter((d) => d.message.includes("bomb")).map((d) => d.code),
    sentMb: Math.round(sent / 1024 / 1024),
    cached: files(cacheDir).filter((f) => !f.startsWith("url/" + f.split("/")[1] + "/index") && !f.endsWith("latest")),
  };
  rmSync(temp, { recursive: true, force: true });
  return out;
};
`,
      60,
    );
    const out = expectBounded(run, { ms: 60_000, mb: 600 });
    report(run.wallMs, run.maxRssMb);
    expect(out.huge).toEqual(["HTTP_TOO_LARGE"]);
    expect(out.bomb).toEqual(["URL_ARCHIVE_INVALID"]);
    expect(out.sentMb).toBeLessThan(1024);
    expect(out.cached).toEqual([]);
  });

  it("a server that trickles bytes forever times out; a redirect loop and a redirect to file:// stop (< 30 s, < 400 MB)", async () => {
    interface Out {
      trickle: { codes: string[]; ms: number };
      loop: string[];
      toFile: string[];
      hops: number;
    }
    const run = await isolated<Out>(
      `
import { resolveUrlSource } from "@skillctx/sources/url-source";
export default async () => {
  let hops = 0;
  const timers = new Set();
  const site = await serve((req, res) => {
    if (req.url.startsWith("/slow")) {
      res.writeHead(200);
      const t = setInterval(() => res.write("{"), 50);
      timers.add(t);
      res.on("close", () => clearInterval(t));
      return;
    }
    if (req.url.startsWith("/loop")) { hops++; res.writeHead(302, { location: req.url === "/loop/a/.well-known/agent-skills/index.json" ? "/loop/b/.well-known/agent-skills/index.json" : "/loop/a/.well-known/agent-skills/index.json" }); return res.end(); }
    if (req.url.startsWith("/file")) { res.writeHead(301, { location: "file:///etc/passwd" }); return res.end(); }
    res.writeHead(404); res.end();
  });
  const cacheDir = path.join(temp, "cache");
  const started = performance.now();
  const trickle = await resolveUrlSource({ url: site.base + "/slow" }, { cacheDir, timeoutMs: 2000 });
  const ms = performance.now() - started;
  const loop = await resolveUrlSource({ url: site.base + "/loop/a" }, { cacheDir });
  const toFile = await resolveUrlSource({ url: site.base + "/file" }, { cacheDir });
  for (const t of timers) clearInterval(t);
  site.close();
  rmSync(temp, { recursive: true, force: true });
  return { trickle: { codes: trickle.diagnostics.map((d) => d.code), ms }, loop: loop.diagnostics.map((d) => d.code), toFile: toFile.diagnostics.map((d) => d.code), hops };
};
`,
      30,
    );
    const out = expectBounded(run, { ms: 30_000, mb: 400 });
    report(run.wallMs, run.maxRssMb);
    // Timed out (the network failed), then nothing cached to fall back on.
    expect(out.trickle.codes).toEqual(["URL_UNREACHABLE", "URL_NOT_CACHED"]);
    expect(out.trickle.ms).toBeLessThan(15_000);
    expect(out.loop).toEqual(["HTTP_REDIRECT"]);
    expect(out.hops).toBe(6);
    expect(out.toFile).toEqual(["HTTP_REDIRECT"]);
  });

  it("an index with ../ names and archives with ../, absolute and symlinked entries writes nothing outside the cache (< 30 s, < 400 MB)", async () => {
    interface Out {
      codes: string[];
      loaded: string[];
      outside: string[];
      cached: string[];
    }
    const run = await isolated<Out>(
      `
import { resolveUrlSource } from "@skillctx/sources/url-source";
// A tar with one entry (raw ustar header), so a hostile name reaches the reader unchanged.
function tar(entries) {
  const blocks = [];
  for (const { name, body = "", type = "0", link = "" } of entries) {
    const h = Buffer.alloc(512);
    h.write(name, 0, 100, "utf8");
    h.write("0000644\\0", 100); h.write("0000000\\0", 108); h.write("0000000\\0", 116);
    h.write(Buffer.byteLength(body).toString(8).padStart(11, "0") + "\\0", 124);
    h.write("00000000000\\0", 136);
    h.write(type, 156); h.write(link, 157, 100);
    h.write("ustar\\0", 257); h.write("00", 263);
    h.fill(" ", 148, 156);
    let sum = 0; for (const b of h) sum += b;
    h.write(sum.toString(8).padStart(6, "0") + "\\0 ", 148);
    blocks.push(h);
    const data = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512); data.write(body);
    blocks.push(data);
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
export default async () => {
  const skill = "---\\nname: x\\ndescription: d\\n---\\n";
  const artifacts = {
    "dotdot.tar.gz": tar([{ name: "SKILL.md", body: skill }, { name: "../../../../escaped.txt", body: "pwned" }]),
    "absolute.tar.gz": tar([{ name: "SKILL.md", body: skill }, { name: "/tmp/skillctx-adv-absolute.txt", body: "pwned" }]),
    "linked.tar.gz": tar([{ name: "SKILL.md", body: skill }, { name: "passwd", type: "2", link: "/etc/passwd" }, { name: "hard", type: "1", link: "/etc/passwd" }]),
    "backslash.tar.gz": tar([{ name: "SKILL.md", body: skill }, { name: "..\\\\..\\\\win.txt", body: "pwned" }]),
  };
  const entries = [
    { name: "../escape", type: "skill-md", url: "x.md", digest: sha(skill) },
    { name: "dotdot", type: "archive", url: "dotdot.tar.gz", digest: sha(artifacts["dotdot.tar.gz"]) },
    { name: "absolute", type: "archive", url: "absolute.tar.gz", digest: sha(artifacts["absolute.tar.gz"]) },
    { name: "linked", type: "archive", url: "linked.tar.gz", digest: sha(artifacts["linked.tar.gz"]) },
    { name: "backslash", type: "archive", url: "backslash.tar.gz", digest: sha(artifacts["backslash.tar.gz"]) },
    { name: "traversal-url", type: "skill-md", url: "../../../../etc/passwd", digest: sha(skill) },
  ];
  const site = await serve((req, res) => {
    const name = req.url.split("/").pop();
    if (name === "index.json") return res.end(JSON.stringify({ $schema: SCHEMA, skills: entries }));
    if (artifacts[name]) return res.end(artifacts[name]);
    res.writeHead(404); res.end();
  });
  const cacheDir = path.join(temp, "nested", "cache");
  const result = await resolveUrlSource({ url: site.base }, { cacheDir });
  site.close();
  const outside = files(temp).filter((f) => !f.startsWith("nested/cache/")).concat(existsSync("/tmp/skillctx-adv-absolute.txt") ? ["/tmp/skillctx-adv-absolute.txt"] : []);
  const cached = files(cacheDir).filter((f) => f.includes("/skills/"));
  rmSync(temp, { recursive: true, force: true });
  return { codes: result.diagnostics.map((d) => d.code), loaded: result.skills.map((s) => s.name), outside, cached };
};
`,
      30,
    );
    const out = expectBounded(run, { ms: 30_000, mb: 400 });
    report(run.wallMs, run.maxRssMb);
    expect(out.outside).toEqual([]);
    expect(out.loaded).toEqual(["linked"]);
    expect(out.codes).toEqual([
      "URL_INDEX_INVALID",
      "URL_ARCHIVE_INVALID",
      "URL_ARCHIVE_INVALID",
      "URL_ARCHIVE_LINKS",
      "URL_ARCHIVE_INVALID",
      "HTTP_STATUS",
    ]);
    expect(out.cached.every((f) => f.endsWith("/linked/SKILL.md"))).toBe(true);
  });
});
