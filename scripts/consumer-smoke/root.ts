// The root entry alone, with no optional peer installed: one dependency gives the engine, its types and
// the error class.
import { AgentContext, SkillctxError } from "skillctx";
import { ContextStateSchema, MessageSchema, SkillSchema } from "skillctx/schemas";
import type {
  AgentContextOptions,
  ContextStep,
  ConversationOptions,
  Diagnostic,
  Message,
  Skill,
  SkillSourceInput,
} from "skillctx";
import { check, fixture } from "./check.js";

const sources: SkillSourceInput[] = [];
const options: AgentContextOptions = {
  cwd: fixture,
  skills: sources,
  systemPrompt: "You write release notes.",
  trust: { project: true },
};
const ctx = await AgentContext.create(options);
try {
  const skills: readonly Skill[] = ctx.skills;
  check(
    skills.some((s) => s.name === "release-notes"),
    "the repository's skill is found",
  );
  const messages: Message[] = [{ role: "user", content: "Write the release notes for 1.2." }];
  const step: ContextStep = await ctx.buildContext(messages);
  check(step.system.startsWith("You write release notes."), "system starts with the host prompt");
  check(step.system.includes("release-notes"), "system lists the skill in the catalog");
  check(step.system.includes("Keep a changelog"), "system carries AGENTS.md guidance");
  check(
    step.tools.some((t) => t.name === "load_skill"),
    "the skill tools are offered",
  );
  const diagnostics: readonly Diagnostic[] = step.diagnostics;
  check(
    diagnostics.every((d) => d.severity !== "error"),
    "no error diagnostics",
  );

  const loaded = await ctx.callTool("load_skill", { name: "release-notes" });
  check(JSON.stringify(loaded).includes("Group the changes"), "load_skill returns the body");
  const script = await ctx.callTool("run_skill_script", { name: "release-notes", script: "scripts/count.ts" });
  check(
    script.isError === true && JSON.stringify(script).includes("npm install tsx"),
    "a .ts script without tsx says how to add it",
  );
  const js = await ctx.callTool("run_skill_script", { name: "release-notes", script: "scripts/count.mjs" });
  check(JSON.stringify(js).includes("3 changes"), "a .mjs script runs");
} finally {
  await ctx.close();
}

try {
  await AgentContext.create({
    cwd: fixture,
    conversation: {
      state: { version: -1 } as unknown as NonNullable<ConversationOptions["state"]>,
    },
  });
  check(false, "a bad state is refused");
} catch (error) {
  check(
    SkillctxError.isInstance(error) && error.code === "STATE_INVALID",
    "a bad state is a SkillctxError STATE_INVALID",
  );
}

// The zod schemas of the API, from their own entry point.
check(
  MessageSchema.safeParse({ role: "user", content: "hi" }).success,
  "skillctx/schemas: MessageSchema accepts a message",
);
check(
  !ContextStateSchema.safeParse({ version: -1 }).success,
  "skillctx/schemas: ContextStateSchema refuses a bad state",
);
check(!SkillSchema.safeParse({ name: "" }).success, "skillctx/schemas: SkillSchema refuses a nameless skill");
