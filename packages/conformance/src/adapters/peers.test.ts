/**
 * The peer adapters call their loaders' public APIs: each lists a skill of `.agents/skills` and one of
 * `.claude/skills` at the working folder, and nothing of a folder it is not given (`.github/skills`).
 * `pnpm conformance` runs them on the whole corpus; this keeps them working between two runs.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaseRun, ConformanceAdapter } from "../adapter.js";
import { deepagentsAdapter } from "./deepagents.js";
import { mastraAdapter } from "./mastra.js";
import { openaiAgentsAdapter } from "./openai-agents.js";
import { strandsAdapter } from "./strands.js";

let repo = "";
beforeAll(async () => {
  repo = await mkdtemp(path.join(tmpdir(), "conformance-peers-"));
  const skill = async (folder: string, name: string) => {
    await mkdir(path.join(repo, folder, name), { recursive: true });
    const text = `---\nname: ${name}\ndescription: The ${name} skill, for tests.\n---\n\nDo ${name}.\n`;
    await writeFile(path.join(repo, folder, name, "SKILL.md"), text);
  };
  await skill(".agents/skills", "alpha");
  await skill(".claude/skills", "beta");
  await skill(".github/skills", "gamma");
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

const run = (): CaseRun => ({
  slug: "peers",
  repo,
  cwd: repo,
  home: repo,
  case: { id: "p", rule: "claude-skills", source: "https://agentskills.io/", expect: {} },
});

describe.each([
  ["OpenAI Agents SDK", openaiAgentsAdapter],
  ["Mastra", mastraAdapter],
  ["Deep Agents", deepagentsAdapter],
  ["Strands", strandsAdapter],
] as Array<[string, () => ConformanceAdapter]>)("%s adapter", (_label, make) => {
  it("names the installed version and lists the skills of the folders it is given, with their descriptions", async () => {
    const adapter = make();
    expect(adapter.name).toMatch(/ \d+\.\d+\.\d+/);
    expect(adapter.rules?.has("claude-skills")).toBe(true);
    expect(adapter.rules?.has("agents-md-chain")).toBe(false);
    const observed = await adapter.observe(run());
    if ("unsupported" in observed) throw new Error(observed.unsupported);
    const skills = [...(observed.skills ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    expect(skills).toEqual([
      { name: "alpha", description: "The alpha skill, for tests." },
      { name: "beta", description: "The beta skill, for tests." },
    ]);
  }, 60_000);
});
