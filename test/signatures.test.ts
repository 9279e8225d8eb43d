import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "@skillctx/core";
import { loadSkillSet } from "../packages/engine/src/engine/skill-set.js";
import { SIGNATURE_BUNDLE_FILE, verifySignatures } from "../packages/sources/src/verify-signatures.js";
import { useEngineFixture } from "./helpers/engine-fixture.js";
import { signSkillFolder, startSigstoreInstance } from "./helpers/sigstore-instance.js";
import type { SigstoreInstance } from "./helpers/sigstore-instance.js";

const ALICE = { issuer: "https://issuer.test", subject: "alice@example.com" };
const MALLORY = { issuer: "https://issuer.test", subject: "mallory@example.com" };

const skillMd = (name: string, body = "Body.") => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;

describe("signatures", () => {
  const fx = useEngineFixture();
  let instance: SigstoreInstance;
  beforeAll(async () => {
    instance = await startSigstoreInstance();
  });
  afterAll(async () => {
    await instance.close();
  });

  async function signedRepo() {
    const repo = await fx.repo({
      ".agents/skills/good/SKILL.md": skillMd("good"),
      ".agents/skills/good/scripts/run.py": "print('hi')\n",
      ".agents/skills/wrong/SKILL.md": skillMd("wrong"),
      ".agents/skills/tampered/SKILL.md": skillMd("tampered"),
      ".agents/skills/unsigned/SKILL.md": skillMd("unsigned"),
    });
    const dir = (name: string) => path.join(repo.dir, ".agents/skills", name);
    await signSkillFolder(instance, dir("good"), ALICE);
    await signSkillFolder(instance, dir("wrong"), MALLORY);
    await signSkillFolder(instance, dir("tampered"), ALICE);
    await repo.write(".agents/skills/tampered/SKILL.md", skillMd("tampered", "Now do something else."));
    return repo;
  }

  it("loads a skill signed by an accepted identity and refuses wrongly signed, tampered and unsigned ones", async () => {
    const repo = await signedRepo();
    const ctx = await fx.context({
      cwd: repo.dir,
      sources: {
        verify: { identities: [ALICE], trustedRoot: instance.trustedRoot, scope: "all" },
      },
    });
    expect(ctx.skills.map((s) => s.name)).toEqual(["good"]);
    const step = await ctx.buildContext([]);
    const refused = step.diagnostics.filter((d) => d.code === "SIGNATURE_REFUSED");
    const reason = (name: string) => refused.find((d) => d.message.includes(`"${name}"`))?.message;
    expect(reason("wrong")).toMatch(/signed by mallory@example\.com .*not in verify\.identities/);
    expect(reason("tampered")).toMatch(/does not verify over the folder digest sha256:/);
    expect(reason("unsigned")).toMatch(new RegExp(`not signed \\(no ${SIGNATURE_BUNDLE_FILE.replace(".", "\\.")}`));
    expect(refused.every((d) => d.path !== undefined && d.severity === "error")).toBe(true);
    expect(step.system).toContain("good");
    expect(step.system).not.toContain("The wrong skill");
  });

  it("accepts a second identity and takes the trusted root from a file", async () => {
    const repo = await signedRepo();
    const rootFile = await repo.write("trusted_root.json", JSON.stringify(instance.trustedRoot));
    const ctx = await fx.context({
      cwd: repo.dir,
      sources: {
        verify: { identities: [ALICE, MALLORY], trustedRoot: rootFile, scope: "all" },
      },
    });
    expect(ctx.skills.map((s) => s.name)).toEqual(["good", "wrong"]);
  });

  it("refuses everything against another instance's trusted root", async () => {
    const other = await startSigstoreInstance();
    try {
      const repo = await signedRepo();
      const ctx = await fx.context({
        cwd: repo.dir,
        sources: {
          verify: { identities: [ALICE], trustedRoot: other.trustedRoot, scope: "all" },
        },
      });
      expect(ctx.skills).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("checks only remote skills by default", async () => {
    const repo = await signedRepo();
    const remoteRepo = await fx.repo({ "signed/SKILL.md": skillMd("signed"), "plain/SKILL.md": skillMd("plain") });
    await signSkillFolder(instance, path.join(remoteRepo.dir, "signed"), ALICE);
    const set = await loadSkillSet({
      cwd: repo.dir,
      guidance: false,
      sources: {
        verify: { identities: [ALICE], trustedRoot: instance.trustedRoot },
      },
      remote: [
        {
          key: "url:test",
          origin: "test",
          resolved: {},
          diagnostics: [],
          skills: ["signed", "plain"].map((name) => ({
            name,
            dir: path.join(remoteRepo.dir, name),
            digest: `sha256:${"0".repeat(64)}` as const,
          })),
        },
      ],
    });
    // Local skills are not checked under the default scope; of the remote ones only the signed one loads.
    expect(set.skills.map((s) => s.name)).toEqual(["good", "signed", "tampered", "unsigned", "wrong"]);
    expect(set.diagnostics.find((d) => d.code === "SIGNATURE_REFUSED")?.message).toMatch(
      /"plain" is not loaded: it is not signed/,
    );
  });

  it("keeps the bundle out of the digest it signs: re-signing gives the same digest", async () => {
    const repo = await signedRepo();
    const dir = path.join(repo.dir, ".agents/skills/good");
    const first = await signSkillFolder(instance, dir, ALICE);
    const second = await signSkillFolder(instance, dir, ALICE);
    expect(second).toBe(first);
  });

  it("refuses a bundle that is not JSON, a garbage bundle and a malformed trusted root, each with its reason", async () => {
    const repo = await signedRepo();
    await writeFile(path.join(repo.dir, ".agents/skills/good", SIGNATURE_BUNDLE_FILE), "{not json");
    await writeFile(
      path.join(repo.dir, ".agents/skills/wrong", SIGNATURE_BUNDLE_FILE),
      JSON.stringify({ mediaType: "nope" }),
    );
    const ctx = await fx.context({
      cwd: repo.dir,
      sources: {
        verify: { identities: [ALICE], trustedRoot: instance.trustedRoot, scope: "all" },
      },
    });
    expect(ctx.skills).toEqual([]);
    const messages = (await ctx.buildContext([])).diagnostics.map((d) => d.message).join("\n");
    expect(messages).toMatch(/"good" is not loaded: its skill\.sigstore\.json is not JSON/);
    expect(messages).toMatch(/"wrong" is not loaded: its signature does not verify/);

    const diagnostics: Diagnostic[] = [];
    const skills = (await loadSkillSet({ cwd: repo.dir, guidance: false })).skills;
    const refusedAll = await verifySignatures(
      skills,
      { identities: [ALICE], trustedRoot: { tlogs: "x" }, scope: "all" },
      diagnostics,
    );
    expect(skills.map((s) => s.name)).toEqual(["good", "tampered", "unsigned", "wrong"]);
    expect(refusedAll).toEqual([]);
    expect(diagnostics[0]?.message).toMatch(/verify\.trustedRoot is not a sigstore TrustedRoot: tlogs is not an array/);
  });

  it("without a trusted root, when the public-good root cannot be obtained through TUF, refuses rather than loads unchecked", async () => {
    const repo = await signedRepo();
    // A TUF mirror that refuses connections (a closed port on loopback) and an empty cache: no network is touched.
    const closed = await closedPort();
    const cachePath = path.join(repo.dir, "..", "tuf-cache");
    const ctx = await fx.context({
      cwd: repo.dir,
      sources: {
        verify: { identities: [ALICE], scope: "all", tuf: { mirrorURL: `http://127.0.0.1:${closed}`, cachePath } },
      },
    });
    expect(ctx.skills).toEqual([]);
    const step = await ctx.buildContext([]);
    expect(step.diagnostics.find((d) => d.code === "SIGNATURE_REFUSED")?.message).toMatch(
      /public-good trusted root could not be obtained through @sigstore\/tuf/,
    );
  });

  it("rejects a malformed verify option", async () => {
    const repo = await signedRepo();
    await expect(
      fx.context({ cwd: repo.dir, sources: { verify: { identities: [{ issuer: "", subject: "x" }] } } }),
    ).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
    await expect(
      fx.context({ cwd: repo.dir, sources: { verify: { identities: [ALICE], scope: "some" as never } } }),
    ).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
  });
});

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
