import { cp, mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { afterEach, beforeEach } from "vitest";
import { AgentContext } from "skillctx";
import type { AgentContextOptions } from "skillctx";
import { withDefaults } from "./options.js";

/** fixtures/tools/skills: skills with references/, assets/ and scripts in every runner's language. */
export const TOOL_SKILLS = fileURLToPath(new URL("../../fixtures/tools/skills/", import.meta.url));

/** A temp copy of fixtures/tools/skills (modes kept), so tests may add symlinks and files. */
export interface SkillsCopy {
  /** The copied `skills` folder. */
  skills: string;
  /** A temp folder beside it to use as the agent's cwd. */
  cwd: string;
  dispose(): Promise<void>;
}

export async function copyToolSkills(): Promise<SkillsCopy> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-tools-")));
  const skills = path.join(root, "skills");
  await cp(TOOL_SKILLS, skills, { recursive: true });
  const cwd = path.join(root, "repo");
  await mkdir(cwd);
  return { skills, cwd, dispose: () => rm(root, { recursive: true, force: true }) };
}

// `ai` and `@openai/agents` are dev dependencies of packages/skillctx, not of the root: load them from there.
const requireFromSkillctx = createRequire(
  fileURLToPath(new URL("../../packages/skillctx/package.json", import.meta.url)),
);

/** A module installed for packages/skillctx (`ai`, `ai/test`, `@openai/agents`). */
export function skillctxDependency<T>(specifier: string): T {
  return requireFromSkillctx(specifier) as T;
}

/** What {@link useToolSkills} gives a test file: the current copy and a context factory. */
export interface ToolSkillsSuite {
  /** The copy made for the running test. */
  readonly copy: SkillsCopy;
  /** A context over the copy (its skills as a programmatic source, guidance off), closed after the test. */
  context(options?: Partial<AgentContextOptions>): Promise<AgentContext>;
}

/**
 * Gives each test of the file a fresh copy of the tool skills (then runs `prepare` on it); contexts
 * and the copy are cleaned up after it.
 */
export function useToolSkills(
  defaults: Partial<AgentContextOptions> = {},
  prepare?: (copy: SkillsCopy) => Promise<void>,
): ToolSkillsSuite {
  let current: SkillsCopy | undefined;
  const contexts: AgentContext[] = [];
  beforeEach(async () => {
    current = await copyToolSkills();
    await prepare?.(current);
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
    await current?.dispose();
  });
  return {
    get copy() {
      if (current === undefined) throw new Error("useToolSkills: no test is running");
      return current;
    },
    async context(options = {}) {
      const copy = this.copy;
      const ctx = await AgentContext.create({
        cwd: copy.cwd,
        skills: [copy.skills],
        guidance: false,
        ...withDefaults(defaults, options),
      });
      contexts.push(ctx);
      return ctx;
    },
  };
}
