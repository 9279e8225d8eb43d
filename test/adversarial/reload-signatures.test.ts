/**
 * Adversarial tests of hot reload and signature checks (issue 15): a watched skill folder of 10,000
 * files, symlink loops and links out of the project below a watched folder, a 50 MB bundle and
 * malformed bundles. Each attack runs in a fresh process (runIsolated) with the bound it checks.
 */
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";
import { compareCodePoints } from "../../packages/core/src/code-point-order.js";

const PRELUDE = `
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext } from "skillctx";
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-reload-")));
const repo = path.join(base, "repo");
const home = path.join(base, "home");
mkdirSync(home, { recursive: true });
function put(file, text) { mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, text); return file; }
const skill = (name, description = "The " + name + " skill.") => "---\\nname: " + name + "\\ndescription: " + description + "\\n---\\nBody of " + name + ".\\n";
const user = (content) => ({ role: "user", content });
async function stepUntil(ctx, messages, done) {
  const deadline = Date.now() + 20000;
  for (let turn = 0; ; turn++) {
    const step = await ctx.buildContext(messages);
    if (done(step)) return step;
    if (Date.now() > deadline) throw new Error("the change never showed up");
    await new Promise((r) => setTimeout(r, 30));
    messages.push({ role: "assistant", content: "ok " + turn }, user("next " + turn));
  }
}
const cleanup = () => rmSync(base, { recursive: true, force: true });
`;

describe("hot reload under hostile folders", () => {
  it("a watched skill folder of 10,000 files: watching is capped with a warning and stays live", async () => {
    const result = await runIsolated<{ codes: string[]; sawEdit: boolean; skills: string[] }>(
      `${PRELUDE}
export default async () => {
  try {
    put(path.join(repo, ".agents/skills/small/SKILL.md"), skill("small"));
    put(path.join(repo, ".agents/skills/big/SKILL.md"), skill("big"));
    for (let d = 0; d < 100; d++) for (let f = 0; f < 100; f++) put(path.join(repo, ".agents/skills/big/data", "d" + d, "f" + f + ".txt"), "x");
    put(path.join(repo, "AGENTS.md"), "Use tabs.\\n");
    const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home, watch: { debounceMs: 20 } }, guidance: { includeNested: false }, catalog: { updates: "system" } });
    const messages = [user("hello")];
    const first = await ctx.buildContext(messages);
    const codes = first.diagnostics.map((d) => d.code);
    // The watcher stays live: an edit of the guidance file at the root (read before the deep folders) still shows.
    put(path.join(repo, "AGENTS.md"), "Use spaces.\\n");
    let sawEdit = false;
    try {
      await stepUntil(ctx, messages, (step) => step.system.includes("Use spaces."));
      sawEdit = true;
    } catch {}
    const skills = ctx.skills.map((s) => s.name);
    await ctx.close();
    return { codes, sawEdit, skills };
  } finally { cleanup(); }
};`,
      { timeoutMs: 120_000 },
    );
    const value = expectBounded(result, { ms: 90_000, mb: 700 }, "10,000 watched files");
    expect(value.codes).toContain("WATCH_LIMIT");
    expect(value.skills).toEqual(["agents", "big", "small"]);
    expect(value.sawEdit).toBe(true);
  });

  it("symlink loops and links out of the project below a watched folder are not followed", async () => {
    const result = await runIsolated<{ skills: string[]; description: string | undefined; codes: string[] }>(
      `${PRELUDE}
export default async () => {
  try {
    put(path.join(repo, ".claude/skills/loop/SKILL.md"), skill("loop"));
    symlinkSync(".", path.join(repo, ".claude/skills/loop/self"));
    symlinkSync("..", path.join(repo, ".claude/skills/loop/up"));
    symlinkSync("/", path.join(repo, ".claude/skills/loop/root"));
    symlinkSync(home, path.join(repo, ".claude/skills/home"));
    put(path.join(home, "secret/SKILL.md"), skill("secret"));
    const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home, watch: { debounceMs: 20 } }, guidance: false });
    const messages = [user("hello")];
    await ctx.buildContext(messages);
    put(path.join(repo, ".claude/skills/loop/SKILL.md"), skill("loop", "Loop, edited."));
    const step = await stepUntil(ctx, messages, () => ctx.skills.some((s) => s.description === "Loop, edited."));
    // An edit behind the link out of the project is never seen as a change of this project.
    put(path.join(home, "secret/SKILL.md"), skill("secret", "Secret, edited."));
    await new Promise((r) => setTimeout(r, 300));
    messages.push({ role: "assistant", content: "x" }, user("y"));
    const later = await ctx.buildContext(messages);
    const skills = ctx.skills.map((s) => s.name);
    const description = ctx.skills.find((s) => s.name === "secret")?.description;
    await ctx.close();
    return { skills, description, codes: [...step.diagnostics, ...later.diagnostics].map((d) => d.code) };
  } finally { cleanup(); }
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 40_000, mb: 500 }, "symlink loops");
    expect(value.skills).toEqual(["loop"]);
    expect(value.description).toBeUndefined();
    expect(value.codes).not.toContain("WATCH_FAILED");
  });
});

describe("signature checks under hostile bundles", () => {
  it("a 50 MB bundle is refused without being read, within bounds", async () => {
    const result = await runIsolated<{ skills: string[]; messages: string[] }>(
      `${PRELUDE}
export default async () => {
  try {
    put(path.join(repo, ".agents/skills/huge/SKILL.md"), skill("huge"));
    put(path.join(repo, ".agents/skills/huge/skill.sigstore.json"), "{" + " ".repeat(50 * 1024 * 1024) + "}");
    const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home, verify: { identities: [{ issuer: "https://i", subject: "s" }], trustedRoot: {}, scope: "all" } }, guidance: false });
    const step = await ctx.buildContext([]);
    const skills = ctx.skills.map((s) => s.name);
    await ctx.close();
    return { skills, messages: step.diagnostics.filter((d) => d.code === "SIGNATURE_REFUSED").map((d) => d.message) };
  } finally { cleanup(); }
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 30_000, mb: 400 }, "50 MB bundle");
    expect(value.skills).toEqual([]);
    expect(value.messages).toHaveLength(1);
    expect(value.messages[0]).toMatch(
      /"huge" is not loaded: its skill\.sigstore\.json cannot be read: .*(large|bytes)/i,
    );
  });

  it("malformed bundles are refused one by one with the reason; the other skills load", async () => {
    const result = await runIsolated<{ skills: string[]; messages: Record<string, string> }>(
      `${PRELUDE}
const bundles = {
  array: "[]",
  nulls: "null",
  deep: "[".repeat(200000) + "]".repeat(200000),
  wrongtypes: JSON.stringify({ mediaType: "application/vnd.dev.sigstore.bundle.v0.3+json", verificationMaterial: { certificate: { rawBytes: 42 } }, messageSignature: "x" }),
  badbase64: JSON.stringify({ mediaType: "application/vnd.dev.sigstore.bundle.v0.3+json", verificationMaterial: { certificate: { rawBytes: "!!!" }, tlogEntries: [] }, messageSignature: { messageDigest: { algorithm: "SHA2_256", digest: "AAAA" }, signature: "AAAA" } }),
  binary: "\\u0000\\u0001",
};
export default async () => {
  try {
    for (const [name, text] of Object.entries(bundles)) {
      put(path.join(repo, ".agents/skills", name, "SKILL.md"), skill(name));
      put(path.join(repo, ".agents/skills", name, "skill.sigstore.json"), text);
    }
    put(path.join(repo, ".agents/skills/plain/SKILL.md"), skill("plain"));
    const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: home, verify: { identities: [{ issuer: "https://i", subject: "s" }], trustedRoot: {}, scope: "remote" } }, guidance: false });
    const all = await AgentContext.create({ cwd: repo, sources: { homeDir: home, verify: { identities: [{ issuer: "https://i", subject: "s" }], trustedRoot: {}, scope: "all" } }, guidance: false });
    const step = await all.buildContext([]);
    const messages = {};
    for (const d of step.diagnostics) if (d.code === "SIGNATURE_REFUSED") messages[d.message.match(/"([^"]+)"/)[1]] = d.message;
    const skills = ctx.skills.map((s) => s.name);
    const allSkills = all.skills.map((s) => s.name);
    await ctx.close();
    await all.close();
    return { skills, allSkills, messages };
  } finally { cleanup(); }
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 30_000, mb: 500 }, "malformed bundles") as {
      skills: string[];
      allSkills: string[];
      messages: Record<string, string>;
    };
    // Local skills are not checked under the default scope "remote".
    expect(value.skills).toEqual(["array", "badbase64", "binary", "deep", "nulls", "plain", "wrongtypes"]);
    expect(value.allSkills).toEqual([]);
    expect(Object.keys(value.messages).sort(compareCodePoints)).toEqual([
      "array",
      "badbase64",
      "binary",
      "deep",
      "nulls",
      "plain",
      "wrongtypes",
    ]);
    expect(value.messages["plain"]).toMatch(/not signed/);
    expect(value.messages["deep"]).toMatch(/not JSON|does not verify/);
    expect(value.messages["binary"]).toMatch(/cannot be read|not JSON/);
    for (const name of ["array", "nulls", "wrongtypes", "badbase64"])
      expect(value.messages[name]).toMatch(/does not verify over the folder digest/);
  });
});
