// The skillctx demo: discovers and validates the skills of fixtures/demo-repo, then plays a short
// agent conversation over it and shows what each step adds to the model's context.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { discoverSkills, validateSkill } from "@skillctx/core";
import { AgentContext } from "skillctx";

const repo = fileURLToPath(new URL("../fixtures/demo-repo/", import.meta.url));
const rel = (p) => (p === undefined ? "(programmatic)" : path.relative(repo, p));
const rule = (title) => console.log(`\n── ${title} ${"─".repeat(Math.max(0, 70 - title.length))}`);

rule("1. Skills found in fixtures/demo-repo");
const { skills, diagnostics } = await discoverSkills({ cwd: repo });
for (const skill of skills) {
  console.log(`  ${skill.name.padEnd(15)} ${skill.trigger.type.padEnd(10)} ${rel(skill.source.path)}`);
}
for (const d of diagnostics) console.log(`  ${d.severity} ${d.code} ${rel(d.path)}: ${d.message}`);

rule("2. Agent Skills validation (SKILL.md folders)");
for (const skill of skills.filter((s) => s.source.format === "skill-md")) {
  const result = await validateSkill(skill.dir);
  const findings = result.diagnostics.map((d) => `${d.severity} ${d.code}`).join(", ");
  console.log(`  ${skill.name.padEnd(15)} ${result.valid ? "valid" : "INVALID"}${findings ? `  (${findings})` : ""}`);
}

rule("3. A conversation, step by step");
const ctx = await AgentContext.create({
  cwd: repo,
  systemPrompt: "You are a careful coding agent working on acme-notes.",
  model: "claude-sonnet-4-6",
  trust: { project: true }, // our own fixture: let its !`cmd` spans run
  conversation: {
    collectInputs: async ({ skill, message }) => {
      console.log(`  collectInputs(${skill.name}) asked; answering from the message`);
      const text = typeof message.content === "string" ? message.content : "";
      return { bug_description: text.replace("/bug-report", "").trim(), severity: "high" };
    },
  },
});

const history = [];
async function step(label, ...messages) {
  history.push(...messages);
  const result = await ctx.buildContext(history);
  console.log(`\n  ${label}`);
  if (result.activated.length === 0)
    console.log("    (nothing new: guidance and catalog are already in the system prompt)");
  for (const a of result.activated) {
    const why =
      a.trigger === "path"
        ? `a tool touched ${a.match}`
        : a.trigger === "load"
          ? "the model loaded it"
          : `the message says "${a.match}"`;
    console.log(`    + ${a.skill} [${a.trigger}] because ${why}; attached to message ${a.messageIndex ?? "-"}`);
  }
  return result;
}

const first = await step('user: "Hi! We want tag search in acme-notes."', {
  role: "user",
  content: "Hi! We want tag search in acme-notes.",
});
await step('user: "The docker build fails on better-sqlite3."', {
  role: "user",
  content: "The docker build fails on better-sqlite3.",
});
await step(
  "assistant reads src/db/schema.ts; the tool answers",
  {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "call-1", name: "read_file", args: { path: "src/db/schema.ts" } }],
  },
  { role: "tool", toolCallId: "call-1", content: "export const SCHEMA_VERSION = 3; ..." },
);
const last = await step('user: "/bug-report GET /notes?tag= answers 500"', {
  role: "user",
  content: "/bug-report GET /notes?tag= answers 500",
});

rule("4. Progressive disclosure: the model loads a skill, then reads one of its files");
const loaded = await ctx.callTool("load_skill", { name: "release-notes" });
console.log(indent(`${loaded.content.split("\n").slice(0, 6).join("\n")}\n…`));
const resource = await ctx.callTool("read_skill_resource", { name: "release-notes", path: "references/style.md" });
console.log(indent(`${resource.content.split("\n").slice(0, 4).join("\n")}\n…`));
const afterLoad = await ctx.buildContext(history);
console.log(`\n  next step: activated ${JSON.stringify(afterLoad.activated)}; active skill ${ctx.activeSkill}`);
console.log(`  tools: ${afterLoad.tools.map((t) => t.name).join(", ")}`);

rule("5. What the model receives at the last step");
console.log(`  system: ${last.system.length} characters, identical to step 1: ${last.system === first.system}`);
console.log(indent(`${last.system.split("\n").slice(0, 12).join("\n")}\n  …`));
const attached = last.messages.at(-1).content.at(-1).text;
console.log("\n  text attached to the last user message:");
console.log(indent(attached));
await ctx.close();

function indent(text) {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
