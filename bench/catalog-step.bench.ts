/**
 * Issue 7 figures, in one run:
 * - catalog rendering for 1,000 and 10,000 skills (target: under 2 ms at 1,000), against a bare string join;
 * - a `buildContext` step where nothing changed (same messages, 1,000 skills, an active skill filtering the
 *   tools), against a trivial baseline that only copies arrays: the "zero cost" step;
 * - the catalog's token count at 1,000 skills with and without a budget (printed; the count is benched too).
 *
 * Descriptions are the real ones of ../shared/corpus (246 SKILL.md files), cycled under unique names;
 * synthetic text when the corpus is absent.
 *
 * Run: `pnpm vitest bench --run bench/catalog-step.bench.ts`
 */
import { fileURLToPath } from "node:url";
import { buildCatalog, countTokens } from "@skillctx/core";
import type { SkillInit } from "@skillctx/core";
import { AgentContext } from "skillctx";
import type { ContextStep, Message } from "skillctx";
import { bench, describe } from "vitest";
import { corpusDescriptions } from "./bench-data.js";

const descriptions = corpusDescriptions();
const makeSkills = (count: number): SkillInit[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `skill-${String(i).padStart(5, "0")}`,
    description: descriptions[i % descriptions.length]!,
    content: `Body of skill ${i}.`,
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "on-demand" },
    ...(i === 0 && { allowedTools: ["Read", "Grep"] }),
  }));

const skills1k = makeSkills(1000);
const skills10k = makeSkills(10_000);

// ---- figures ----
const full = buildCatalog(skills1k as never);
console.log(`[catalog-step] corpus descriptions: ${descriptions.length}`);
console.log(
  `[catalog-step] 1,000 skills, no budget: ${full.text.length} chars, ${full.tokens} tokens (o200k_base; countTokens(text) = ${countTokens(full.text)})`,
);
for (const budgetTokens of [Math.floor(full.tokens * 0.75), Math.floor(full.tokens * 0.3), 8000, 2000]) {
  const result = buildCatalog(skills1k as never, { budgetTokens });
  console.log(
    `[catalog-step] 1,000 skills, budget ${budgetTokens}: level ${result.level}, ${result.tokens} tokens ` +
      `(countTokens(text) = ${countTokens(result.text)}), ${result.included.length} listed, ${result.omitted.length} omitted`,
  );
}
console.log(`[catalog-step] 10,000 skills, no budget: ${buildCatalog(skills10k as never).tokens} tokens`);

// ---- an agent context with 1,000 skills, host tools, a 40-message history and an active skill ----
const ctx = await AgentContext.create({
  cwd: fileURLToPath(new URL("../fixtures/demo-repo/", import.meta.url)),
  skills: skills1k as never,
  guidance: false,
  systemPrompt: "You are a coding agent.",
  tools: {
    host: ["Read", "Write", "Grep", "Bash", "Edit"].map((name) => ({
      name,
      description: `${name} tool`,
      execute: () => name,
    })),
  },
});
const history: Message[] = [];
for (let i = 0; i < 20; i++) {
  history.push({ role: "user", content: `Question ${i}: how do I change the build for module ${i}?` });
  history.push({ role: "assistant", content: `Answer ${i}: edit the config of module ${i} and run the tests.` });
}
await ctx.buildContext(history);
await ctx.callTool("load_skill", { name: "skill-00000" });
const warm: ContextStep = await ctx.buildContext(history);
console.log(
  `[catalog-step] step tools while skill-00000 (allowed-tools: Read Grep) is active: ${warm.tools.map((t) => t.name).join(", ")}`,
);
console.log(`[catalog-step] system: ${warm.system.length} chars, ${countTokens(warm.system)} tokens`);

describe("catalog rendering", () => {
  bench("baseline: join 1,000 names and descriptions", () => {
    let text = "";
    for (const skill of skills1k) text += `${skill.name}: ${skill.description}\n`;
    if (text.length === 0) throw new Error("unreachable");
  });
  bench("buildCatalog, 1,000 skills", () => {
    buildCatalog(skills1k as never);
  });
});

describe("catalog rendering at 10,000 skills", () => {
  bench("baseline: join 10,000 names and descriptions", () => {
    let text = "";
    for (const skill of skills10k) text += `${skill.name}: ${skill.description}\n`;
    if (text.length === 0) throw new Error("unreachable");
  });
  bench("buildCatalog, 10,000 skills", () => {
    buildCatalog(skills10k as never);
  });
});

describe("a step where nothing changed (1,000 skills, 40 messages, active skill filtering tools)", () => {
  bench("baseline: return the same step (copy arrays)", async () => {
    await Promise.resolve();
    const step: ContextStep = {
      system: warm.system,
      messages: history.slice(),
      tools: warm.tools.slice(),
      activated: [],
      diagnostics: [],
      attachments: [],
    };
    if (step.messages.length !== history.length) throw new Error("unreachable");
  });
  bench("ctx.buildContext(same messages)", async () => {
    await ctx.buildContext(history);
  });
});

describe("catalog token count at 1,000 skills", () => {
  bench("no budget (count the rendered text)", () => {
    if (buildCatalog(skills1k as never).tokens <= 0) throw new Error("unreachable");
  });
  bench("budget 8,000 tokens (degrade until it fits)", () => {
    if (buildCatalog(skills1k as never, { budgetTokens: 8000 }).tokens > 8000) throw new Error("over budget");
  });
});
