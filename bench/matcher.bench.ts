/**
 * Keyword matching cost of one agent step (issue 3): 1,000 skills × 10 keywords, a conversation of
 * real text (bodies of the published skills in ../shared/corpus), and one new 2 KB user message.
 *
 * - compiled matcher on the new message vs the straightforward algorithm (every keyword of every
 *   skill searched in every user message of the 200-message conversation, with boundary checks),
 *   and that algorithm on the new message alone (skills × keywords, without the history);
 * - an incremental step (match only the user messages not seen before) after 200 vs 2,000 messages.
 *
 * Run: `pnpm vitest bench --run bench/matcher.bench.ts`
 */
import { createKeywordMatcher } from "@skillctx/core";
import type { Skill } from "@skillctx/core";
import { bench, describe } from "vitest";
import { corpusBodies, mulberry32 } from "./bench-data.js";
import { compareCodePoints } from "../packages/core/src/code-point-order.js";

// ---- Data: real English from the corpus, deterministic picks.
const bodies = corpusBodies();
const prose = bodies.join("\n");
const random = mulberry32(7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// Keywords: real words and two-word phrases of the corpus (4+ letters), plus a few slash commands.
const vocabulary = [...new Set(prose.toLowerCase().match(/\p{L}{4,}/gu) ?? [])].sort(compareCodePoints);
const phrases = [...new Set(prose.toLowerCase().match(/\p{L}{4,} \p{L}{4,}/gu) ?? [])].sort(compareCodePoints);
const skills: Array<Pick<Skill, "name" | "trigger">> = Array.from({ length: 1000 }, (_, i) => ({
  name: `skill-${String(i).padStart(4, "0")}`,
  trigger: {
    type: "keyword",
    keywords: Array.from({ length: 10 }, (_, k) =>
      k === 9 ? `/cmd-${i}` : k % 3 === 0 ? pick(phrases) : pick(vocabulary),
    ),
  },
}));

const slice = (length: number): string => {
  const start = Math.floor(random() * (prose.length - length));
  return prose.slice(start, start + length);
};
interface Message {
  role: "user" | "assistant";
  content: string;
}
const conversation = (count: number): Message[] =>
  Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: slice(1000 + Math.floor(random() * 1000)),
  }));
const history200 = conversation(200);
const history2000 = conversation(2000);
const newMessage: Message = { role: "user", content: slice(2048) };

const matcher = createKeywordMatcher(skills);

// ---- Baseline: the straightforward algorithm, with its regexes compiled once up front (in its favour).
const WORD = /^[\p{L}\p{N}\p{M}]$/u;
const NO_SPACE = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]$/u;
const naiveSkills = skills.map((skill) => ({
  name: skill.name,
  keywords: (skill.trigger as { keywords: string[] }).keywords.map((keyword) => ({
    keyword,
    regex: new RegExp(
      keyword
        .trim()
        .split(/\s+/u)
        .map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"))
        .join("\\s+"),
      "giu",
    ),
    first: [...keyword.trim()][0]!,
    last: [...keyword.trim()].at(-1)!,
  })),
}));

function naiveFind(entry: (typeof naiveSkills)[number]["keywords"][number], text: string): number | undefined {
  entry.regex.lastIndex = 0;
  for (let found = entry.regex.exec(text); found !== null; found = entry.regex.exec(text)) {
    const start = found.index;
    const end = start + found[0].length;
    entry.regex.lastIndex = start + 1;
    const before = start > 0 ? String.fromCodePoint(text.codePointAt(start - 1)!) : undefined;
    const after = end < text.length ? String.fromCodePoint(text.codePointAt(end)!) : undefined;
    const refuse = (char: string | undefined, edge: string) =>
      char !== undefined && WORD.test(char) && !NO_SPACE.test(char) && !NO_SPACE.test(edge);
    if (!refuse(before, entry.first) && !refuse(after, entry.last)) return start;
  }
  return undefined;
}

function naiveMatch(messages: readonly Message[]): number {
  let activations = 0;
  for (const message of messages) {
    if (message.role !== "user") continue;
    for (const skill of naiveSkills) {
      for (const entry of skill.keywords) {
        if (naiveFind(entry, message.content) !== undefined) {
          activations++;
          break;
        }
      }
    }
  }
  return activations;
}

// ---- Incremental step: match only user messages after the last one already seen.
function step(messages: readonly Message[], seen: number): number {
  let activations = 0;
  for (let i = seen; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") activations += matcher.match(message.content).length;
  }
  return activations;
}

const after200 = [...history200, newMessage];
const after2000 = [...history2000, newMessage];

// Sanity: both algorithms agree on the new message (the baseline also rescans the history).
const compiled = matcher.match(newMessage.content).map((m) => m.skill);
const naive = naiveSkills
  .filter((skill) => skill.keywords.some((entry) => naiveFind(entry, newMessage.content) !== undefined))
  .map((s) => s.name);
if (JSON.stringify(compiled) !== JSON.stringify(naive)) throw new Error("compiled matcher and baseline disagree");
console.log(
  `[matcher] ${matcher.size} skills, 10,000 keywords (${phrases.length} phrases / ${vocabulary.length} words to pick from); ` +
    `new message ${newMessage.content.length} chars fires ${compiled.length} skills; history 200 = ${history200.reduce((n, m) => n + m.content.length, 0)} chars`,
);

describe("match one new 2 KB user message (1,000 skills × 10 keywords, 200-message history)", () => {
  bench("compiled matcher, new message only", () => {
    matcher.match(newMessage.content);
  });
  bench(
    "baseline: every keyword × every user message, boundary checks",
    () => {
      naiveMatch(after200);
    },
    { time: 0, iterations: 3, warmupTime: 0, warmupIterations: 1 },
  );
  bench(
    "for reference: every keyword, new message only (no history rescan)",
    () => {
      naiveMatch([newMessage]);
    },
    { time: 1000 },
  );
});

describe("incremental step: history length does not matter", () => {
  bench("step after 200 messages", () => {
    step(after200, history200.length);
  });
  bench("step after 2,000 messages", () => {
    step(after2000, history2000.length);
  });
});

describe("compiling the matcher (once per skill-set change)", () => {
  bench(
    "createKeywordMatcher, 1,000 skills × 10 keywords",
    () => {
      createKeywordMatcher(skills);
    },
    { time: 1000 },
  );
});
