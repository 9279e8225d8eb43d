import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { describeWithTool } from "./helpers/tools-present.js";
import type { ContextStep, Message } from "skillctx";
import { useEngineFixture, user } from "./helpers/engine-fixture.js";

const fixture = useEngineFixture();

const skillMd = (name: string, description: string, body = `Body of ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const call = (id: string, args: unknown): Message => ({
  role: "assistant",
  content: "",
  toolCalls: [{ id, name: "read_file", args }],
});
const result = (id: string, content = "file text"): Message => ({ role: "tool", content, toolCallId: id });

/** A git monorepo: a root skill, and nested skill folders in two packages. */
async function monorepo(extra: Record<string, string> = {}) {
  const repo = await fixture.repo({
    ".claude/skills/root-skill/SKILL.md": skillMd("root-skill", "Repository-wide conventions."),
    "packages/web/.claude/skills/web-build/SKILL.md": skillMd(
      "web-build",
      "Build the web app with Vite.",
      "Run vite build in ${CLAUDE_SKILL_DIR}/..",
    ),
    "packages/web/src/app.ts": "export {};\n",
    "packages/api/.agents/skills/api-db/SKILL.md": skillMd("api-db", "Migrate the API database."),
    "packages/api/src/db.ts": "export {};\n",
    ...extra,
  });
  execFileSync("git", ["init", "--quiet", repo.dir], { stdio: "ignore" });
  return repo;
}

function notes(step: ContextStep): string[] {
  return step.attachments.map((a) => a.text).filter((text) => text.startsWith("<nested_skills"));
}

describeWithTool("git")("nested skills in monorepos", () => {
  it("reveals a package's skills when a tool touches a file below it: a note on that tool result, system unchanged, loadable from then on", async () => {
    const repo = await monorepo();
    const ctx = await fixture.context({ cwd: repo.dir });
    const history: Message[] = [user("fix the web app")];
    const first = await ctx.buildContext(history);
    expect(ctx.catalog?.included).toEqual(["root-skill"]);
    expect((await ctx.callTool("load_skill", { name: "web-build" })).isError).toBe(true);

    history.push(call("c1", { file_path: "packages/web/src/app.ts" }), result("c1"));
    const step = await ctx.buildContext(history);
    expect(step.system).toBe(first.system);
    expect(step.attachments).toHaveLength(1);
    expect(step.attachments[0]!.messageIndex).toBe(2);
    const note = step.attachments[0]!.text;
    expect(note).toContain(`<nested_skills folder="packages/web/.claude/skills">`);
    expect(note).toContain(`because a tool touched "packages/web/src/app.ts"`);
    expect(note).toContain("web-build");
    expect(note).toContain("Build the web app with Vite.");
    expect(note).not.toContain("api-db");
    expect(ctx.state.nested).toEqual(["packages/web/.claude/skills"]);
    expect(ctx.state.attachments).toEqual([
      expect.objectContaining({
        skill: "packages/web/.claude/skills",
        trigger: "catalog",
        match: "packages/web/src/app.ts",
      }),
    ]);

    const loaded = await ctx.callTool("load_skill", { name: "web-build" });
    expect(loaded.isError).toBeUndefined();
    expect(loaded.content).toContain(
      `Run vite build in ${path.join(repo.dir, "packages/web/.claude/skills/web-build")}/..`,
    );
    // Once: another file of the same package reveals nothing new.
    history.push(call("c2", { path: "packages/web/src/other.ts" }), result("c2"));
    const again = await ctx.buildContext(history);
    expect(notes(again)).toHaveLength(1);
    expect(again.system).toBe(first.system);
    // The user can invoke it too.
    history.push(user("/web-build now"));
    const invoked = await ctx.buildContext(history);
    expect(invoked.activated).toEqual([expect.objectContaining({ skill: "web-build", trigger: "command" })]);
  });

  it("reveals an .agents/skills folder from an absolute path, and ignores paths outside the root, in node_modules and dot folders", async () => {
    const repo = await monorepo({
      "node_modules/dep/.claude/skills/dep-skill/SKILL.md": skillMd("dep-skill", "From a dependency."),
      ".hidden/pkg/.claude/skills/hidden-skill/SKILL.md": skillMd("hidden-skill", "Hidden."),
    });
    const ctx = await fixture.context({ cwd: repo.dir });
    const history: Message[] = [
      user("look around"),
      call("c1", { paths: ["node_modules/dep/index.js", ".hidden/pkg/a.ts", "/etc/hosts", "../outside.txt"] }),
      result("c1"),
    ];
    const none = await ctx.buildContext(history);
    expect(none.attachments).toEqual([]);
    history.push(call("c2", { file_path: path.join(repo.dir, "packages/api/src/db.ts") }), result("c2"));
    const step = await ctx.buildContext(history);
    expect(notes(step)).toEqual([expect.stringContaining(`folder="packages/api/.agents/skills"`)]);
    expect(ctx.skills.map((s) => s.name)).toEqual(["api-db", "root-skill"]);
  });

  it("a resumed context accepts revealed skills without a new touch, and its system is the fresh one", async () => {
    const repo = await monorepo();
    const first = await fixture.context({ cwd: repo.dir });
    const history: Message[] = [user("go"), call("c1", { file_path: "packages/web/src/app.ts" }), result("c1")];
    const step = await first.buildContext(history);
    const resumed = await fixture.context({ cwd: repo.dir, conversation: { state: first.state } });
    expect(resumed.skills.map((s) => s.name)).toContain("web-build");
    const again = await resumed.buildContext(history);
    expect(again.system).toBe(step.system);
    expect(again.attachments).toEqual(step.attachments);
    expect((await resumed.callTool("load_skill", { name: "web-build" })).isError).toBeUndefined();
  });

  it("attaches the note again when its tool result was condensed away and the package is touched again", async () => {
    const repo = await monorepo();
    const ctx = await fixture.context({ cwd: repo.dir });
    await ctx.buildContext([user("go"), call("c1", { file_path: "packages/web/src/app.ts" }), result("c1")]);
    const step = await ctx.buildContext([
      user("Summary."),
      call("c3", { file_path: "packages/web/src/app.ts" }),
      result("c3", "again"),
    ]);
    expect(notes(step)).toHaveLength(1);
    expect(step.attachments[0]!.messageIndex).toBe(2);
  });

  it("keeps the skill already in use on a name clash, and reveals nothing when turned off", async () => {
    const repo = await monorepo({
      "packages/web/.agents/skills/root-skill/SKILL.md": skillMd("root-skill", "A nested impostor."),
    });
    const ctx = await fixture.context({ cwd: repo.dir });
    const step = await ctx.buildContext([
      user("go"),
      call("c1", { file_path: "packages/web/src/app.ts" }),
      result("c1"),
    ]);
    expect(step.diagnostics).toEqual([expect.objectContaining({ code: "NAME_CLASH" })]);
    expect(ctx.skills.find((s) => s.name === "root-skill")?.description).toBe("Repository-wide conventions.");

    const off = await fixture.context({ cwd: repo.dir, conversation: { nestedSkills: false } });
    const quiet = await off.buildContext([
      user("go"),
      call("c1", { file_path: "packages/web/src/app.ts" }),
      result("c1"),
    ]);
    expect(quiet.attachments).toEqual([]);
    expect(off.skills.map((s) => s.name)).toEqual(["root-skill"]);
  });

  it("reads the folders of cwd at create, as before, and reveals a sibling package later", async () => {
    const repo = await monorepo();
    const ctx = await fixture.context({ cwd: path.join(repo.dir, "packages/web") });
    expect(ctx.catalog?.included).toEqual(["root-skill", "web-build"]);
    const step = await ctx.buildContext([user("go"), call("c1", { file_path: "../api/src/db.ts" }), result("c1")]);
    expect(notes(step)).toEqual([expect.stringContaining(`folder="packages/api/.agents/skills"`)]);
  });
});
