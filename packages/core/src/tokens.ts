import { createRequire } from "node:module";

/** The tokenizer skillctx counts with: OpenAI's `o200k_base` (GPT-4o, GPT-4.1, GPT-5, o-series). */
export const TOKENIZER = "o200k_base";

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

let counter: CountTokens | undefined;
// Special-token text such as `<|endoftext|>` is counted as ordinary text instead of throwing.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Counts the tokens of `text` with the `o200k_base` encoding of `gpt-tokenizer`. The encoding
 * (a few MB of ranks, ~150 ms to load) is loaded on the first call, so importing
 * `@skillctx/core` stays cheap. Special-token markers count as plain text. Never throws for a string.
 *
 * @example
 * countTokens("hello world") // 2
 */
export function countTokens(text: string): number {
  if (typeof text !== "string" || text === "") return 0;
  counter ??= loadCounter();
  return counter(text, AS_TEXT);
}

function loadCounter(): CountTokens {
  // Synchronous lazy load: the CommonJS build of the encoding, required on first use.
  const require = createRequire(import.meta.url);
  const encoding = require("gpt-tokenizer/encoding/o200k_base") as { countTokens: CountTokens };
  return encoding.countTokens;
}
