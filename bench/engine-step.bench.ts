/**
 * Issue 3: the cost of one agent step after the host appends one 2 KB user message, with 1,000
 * keyword skills of 10 keywords each, against the straightforward algorithm (every keyword of
 * every skill searched in every user message); and the same step at 2,000 messages of history.
 * Also a step with nothing new.
 *
 * Run: pnpm bench -- bench/engine-step.bench.ts
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bench, describe } from "vitest";
import type { SkillInit } from "@skillctx/core";
import { AgentContext } from "skillctx";
import type { Message } from "skillctx";

const SKILLS = 1_000;
const KEYWORDS_PER_SKILL = 10;
const cwd = mkdtempSync(path.join(tmpdir(), "skillctx-bench-"));

// Deterministic pseudo-random words, so every run measures the same text.
let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qu", "re", "ti", "da", "fu"];
const word = (n: number) =>
  Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join("");

const skills: SkillInit[] = Array.from({ length: SKILLS }, (_, i) => ({
  name: `skill-${i}`,
  description: `Generated skill ${i}`,
  content: `Body of skill ${i}.`,
  source: { kind: "inline", format: "inline", scope: "programmatic" },
  trigger: { type: "keyword", keywords: Array.from({ length: KEYWORDS_PER_SKILL }, () => word(4)) },
}));
const allKeywords = skills.map((s) => (s.trigger as { keywords: string[] }).keywords);

// Ordinary prose of 2 KB that mentions none of the keywords (3-syllable words never equal a 4-syllable keyword).
function userText(): string {
  let text = "";
  while (text.length < 2048) text += `${word(3)} `;
  return text.slice(0, 2048);
}

function conversation(length: number): Message[] {
  const history: Message[] = [];
  for (let i = 0; i < length; i++) {
    history.push(
      i % 2 === 0 ? { role: "user", content: userText() } : { role: "assistant", content: "Noted; continuing." },
    );
  }
  return history;
}

const pool = Array.from({ length: 4_000 }, () => ({ role: "user" as const, content: userText() }));
let next = 0;

async function contextAt(length: number): Promise<{ ctx: AgentContext; history: Message[] }> {
  const ctx = await AgentContext.create({ cwd, skills, guidance: false });
  const history = conversation(length);
  await ctx.buildContext(history);
  return { ctx, history };
}

// Each comparison gets its own contexts, and both sides append the same number of messages.
const STEPS = { iterations: 400, time: 0, warmupIterations: 20, warmupTime: 0 };
const speedup = await contextAt(200);
const short = await contextAt(200);
const long = await contextAt(2_000);

// The straightforward algorithm: every keyword of every skill searched in every user message.
const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
function naiveStep(history: readonly Message[]): number {
  let hits = 0;
  for (const message of history) {
    if (message.role !== "user" || typeof message.content !== "string") continue;
    const text = message.content.toLowerCase();
    for (const keywords of allKeywords) {
      for (const keyword of keywords) {
        for (let at = text.indexOf(keyword); at !== -1; at = text.indexOf(keyword, at + 1)) {
          if (!isWordChar(text[at - 1]) && !isWordChar(text[at + keyword.length])) {
            hits++;
            break;
          }
        }
      }
    }
  }
  return hits;
}
const naiveHistory = conversation(200);

describe("step after appending one 2 KB user message (1,000 skills × 10 keywords, 200 messages)", () => {
  bench(
    "skillctx buildContext",
    async () => {
      speedup.history.push(pool[next++ % pool.length]!);
      await speedup.ctx.buildContext(speedup.history);
    },
    STEPS,
  );
  bench(
    "straightforward: every keyword in every user message",
    () => {
      naiveHistory.push(pool[next++ % pool.length]!);
      naiveStep(naiveHistory);
    },
    { iterations: 5, time: 0, warmupIterations: 1 },
  );
});

describe("step cost against history length", () => {
  bench(
    "buildContext after 200 messages",
    async () => {
      short.history.push(pool[next++ % pool.length]!);
      await short.ctx.buildContext(short.history);
    },
    STEPS,
  );
  bench(
    "buildContext after 2,000 messages",
    async () => {
      long.history.push(pool[next++ % pool.length]!);
      await long.ctx.buildContext(long.history);
    },
    STEPS,
  );
});

describe("step with nothing new (2,000 messages)", () => {
  const still = conversation(2_000);
  let ready: Promise<unknown> | undefined;
  const ctxPromise = AgentContext.create({ cwd, skills, guidance: false });
  bench("buildContext, nothing new", async () => {
    const ctx = await ctxPromise;
    ready ??= ctx.buildContext(still);
    await ready;
    await ctx.buildContext(still);
  });
  bench("baseline: copying the message array", () => {
    still.slice();
  });
});
