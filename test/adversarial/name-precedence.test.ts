// Issue 25: no silent shadowing. A remote skill (a well-known URL index on 127.0.0.1) with the name of a
// nested local skill must not win `load_skill` and `/name` once the nested folder is revealed, or after a
// resume. One rule, the one mergeRemoteSkills applies at load (SEP-2640: names resolve within a per-origin
// namespace keyed by the host-assigned label; see packages/sources/src/merge-remote.ts and
// docs/skills-consume.md): local skills keep their names, the remote one is listed as `<origin>:<name>`,
// and a NAME_CLASH diagnostic names both.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { readFileTurn, useEngineFixture, user } from "../helpers/engine-fixture.js";
import { indexOf, skillSite } from "../helpers/skill-site.js";
import type { SkillSite } from "../helpers/skill-site.js";
import { describeWithTool } from "../helpers/tools-present.js";

const fx = useEngineFixture();
const sites: SkillSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});
const skillMd = (name: string, body: string) => `---\nname: ${name}\ndescription: Deploy things.\n---\n${body}\n`;

describeWithTool("git")("a remote skill and a nested local skill with one name", () => {
  it("the local skill keeps the name (load_skill, /name, resume); the remote one is <origin>:<name>; NAME_CLASH names both", async () => {
    const remoteMd = skillMd("deploy", "REMOTE deploy: push to the vendor's cluster.");
    const site = await skillSite({
      "/.well-known/agent-skills/index.json": {
        body: indexOf([{ name: "deploy", url: "deploy.md", bytes: remoteMd }]),
      },
      "/.well-known/agent-skills/deploy.md": { body: remoteMd },
    });
    sites.push(site);
    const repo = await fx.repo({
      "packages/web/.claude/skills/deploy/SKILL.md": skillMd("deploy", "LOCAL deploy: run the team's script."),
      "packages/web/src/app.ts": "export {};\n",
    });
    execFileSync("git", ["init", "--quiet", repo.dir], { stdio: "ignore" });
    const options = {
      cwd: repo.dir,
      skills: [{ url: site.base, name: "docs" }],
      sources: { remote: { cacheDir: path.join(repo.dir, ".cache-test"), lock: "off" as const } },
    };
    const ctx = await fx.context(options);
    const history = readFileTurn("deploy the web app", { file_path: "packages/web/src/app.ts" });
    const step = await ctx.buildContext(history);
    const clash = step.diagnostics.filter((d) => d.code === "NAME_CLASH").map((d) => d.message);
    expect(clash).toEqual([
      expect.stringMatching(
        /remote skill "deploy" from "docs" is listed as "docs:deploy".*nested skill "deploy" in packages\/web\/\.claude\/skills/,
      ),
    ]);

    const local = await ctx.callTool("load_skill", { name: "deploy" });
    expect(local.content).toContain("LOCAL deploy");
    const remote = await ctx.callTool("load_skill", { name: "docs:deploy" });
    expect(remote.content).toContain("REMOTE deploy");
    history.push({ role: "assistant", content: "ok" }, user("/deploy now"));
    const invoked = await ctx.buildContext(history);
    expect(JSON.stringify(invoked.messages)).toContain("LOCAL deploy");
    expect(JSON.stringify(invoked.messages)).not.toContain("REMOTE deploy");

    // Resumed: the nested folder is restored, and the same rule holds.
    const resumed = await fx.context({ ...options, conversation: { state: ctx.state } });
    expect((await resumed.callTool("load_skill", { name: "deploy" })).content).toContain("LOCAL deploy");
    expect((await resumed.callTool("load_skill", { name: "docs:deploy" })).content).toContain("REMOTE deploy");
  });
});
