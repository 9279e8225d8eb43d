// Guidance from @skillctx/compat as core and the engine consume it: path triggers, the catalog, and
// AgentContext's system prompt and tool-result attachments, on the fixture repositories.
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { buildCatalog, createPathMatcher } from "@skillctx/core";
import { loadGuidance } from "@skillctx/compat";
import { AgentContext } from "skillctx";
import type { ContextStep, Message } from "skillctx";
import { afterAll, describe, expect, test } from "vitest";
import { copyFixture, gitInit, put, removeTempDirs } from "../packages/compat/src/testing/temp-repo.js";
import { describeWithTool, hasTool } from "./helpers/tools-present.js";

afterAll(removeTempDirs);

describeWithTool("git")(
  "path rules from guidance fire through core's path matcher (cwd below the git root)",
  async () => {
    const repo = await copyFixture("monorepo");
    if (hasTool("git")) await gitInit(repo);
    const cwd = path.join(repo, "packages/api");
    const { skills } = await loadGuidance(cwd);
    const matcher = createPathMatcher(skills);
    const fired = (...paths: string[]) => matcher.match(paths, cwd).map((m) => m.skill);

    test("relative and absolute paths inside cwd", () => {
      expect(fired("src/handlers/user.ts")).toEqual(["cursor:api-src", "cursor:packages/api:handlers"]);
      expect(fired(path.join(cwd, "server/index.ts"))).toEqual(["agents:packages/api/server"]);
      expect(fired("src/user.test.ts")).toEqual(["cursor:api-src", "cursor:tests"]);
    });

    test("a root rule naming a sibling folder fires for it; nothing else outside cwd does", () => {
      expect(fired(path.join(repo, "docs/index.md"))).toEqual(["cursor:docs"]);
      expect(fired(path.join(repo, "packages/web/src/a.ts"))).toEqual([]);
    });
  },
);

describe("the catalog lists agent-requested rules, never manual, always-on or path rules", async () => {
  const repo = await copyFixture("all-formats");
  const { skills } = await loadGuidance(repo);
  const catalog = buildCatalog(skills);

  test("which guidance the model can see and load", () => {
    expect(catalog.included).toEqual(["copilot:release", "cursor:migrations"]);
    expect(catalog.text).toContain("Writing database migrations with knex");
  });
});

describeWithTool("git")("AgentContext with repository guidance", async () => {
  const repo = await copyFixture("monorepo");
  await put(repo, "packages/api/server/index.ts", "export {};\n");
  if (hasTool("git")) await gitInit(repo);
  const cwd = path.join(repo, "packages/api");
  const user = (content: string): Message => ({ role: "user", content });
  const attached = (step: ContextStep, index: number) => {
    const content = step.messages[index]?.content;
    return typeof content === "string" || content === undefined
      ? ""
      : content
          .slice(1)
          .map((p) => (p as { text?: string }).text ?? "")
          .join("\n");
  };

  test("system holds root guidance before package guidance, gated by model", async () => {
    const ctx = await AgentContext.create({ cwd, model: "claude-sonnet-4-5" });
    const step = await ctx.buildContext([user("hello")]);
    const rootAgents = step.system.indexOf(await readFile(path.join(repo, "AGENTS.md"), "utf8"));
    const packageAgents = step.system.indexOf(await readFile(path.join(cwd, "AGENTS.md"), "utf8"));
    expect(rootAgents).toBeGreaterThanOrEqual(0);
    expect(packageAgents).toBeGreaterThan(rootAgents);
    expect(step.system).toContain("API notes for Claude");
    await ctx.close();

    const forGpt = await AgentContext.create({ cwd, model: "gpt-4o" });
    expect((await forGpt.buildContext([user("hello")])).system).not.toContain("API notes for Claude");
    await forGpt.close();
  });

  test("a tool call that touches a nested folder attaches that folder's AGENTS.md to the tool result", async () => {
    const ctx = await AgentContext.create({ cwd });
    const history: Message[] = [
      user("fix the server"),
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "read_file", args: { path: "server/index.ts" } }],
      },
      { role: "tool", content: "export {};", toolCallId: "c1" },
    ];
    const step = await ctx.buildContext(history);
    expect(step.activated).toEqual([
      { skill: "agents:packages/api/server", trigger: "path", match: "server/index.ts", messageIndex: 2 },
    ]);
    expect(attached(step, 2)).toContain(await readFile(path.join(cwd, "server/AGENTS.md"), "utf8"));
    await ctx.close();
  });
});
