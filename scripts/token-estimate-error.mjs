#!/usr/bin/env node
// The error of core's token estimate (estimateTokens) against the exact o200k_base count (gpt-tokenizer),
// over every Markdown file of the real-world corpus: prints the median, p95 and largest relative error.
// Needs `pnpm build` (it imports the built @skillctx/core) and the corpus (SKILLCTX_CORPUS, ../shared/corpus
// beside the clone, or .corpus/ from `pnpm corpus`).
//   node scripts/token-estimate-error.mjs [CORPUS_DIR]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const corpus =
  process.argv[2] ??
  process.env.SKILLCTX_CORPUS ??
  [path.join(root, "../shared/corpus"), "/work/shared/corpus", path.join(root, ".corpus")].find(existsSync);
if (corpus === undefined || !existsSync(corpus)) {
  console.error("no corpus: pass its folder, set SKILLCTX_CORPUS, or run `pnpm corpus`");
  process.exit(2);
}
const { estimateTokens } = await import(path.join(root, "packages/core/dist/index.js"));
const require = createRequire(path.join(root, "packages/core/package.json"));
const { countTokens } = require("gpt-tokenizer/encoding/o200k_base");

const files = [];
(function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (/\.(md|mdc|txt)$/i.test(entry.name)) files.push(full);
  }
})(corpus);

const errors = [];
let exactTotal = 0;
let estimateTotal = 0;
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const exact = countTokens(text, { disallowedSpecial: new Set() });
  if (exact === 0) continue;
  const estimate = estimateTokens(text);
  exactTotal += exact;
  estimateTotal += estimate;
  errors.push(Math.abs(estimate - exact) / exact);
}
errors.sort((a, b) => a - b);
const at = (q) => errors[Math.min(errors.length - 1, Math.floor(q * errors.length))];
const pct = (x) => `${(x * 100).toFixed(1)} %`;
console.log(
  `token estimate vs o200k_base on ${errors.length} files of ${corpus}: median ${pct(at(0.5))}, p95 ${pct(at(0.95))}, max ${pct(errors.at(-1))}; total ${estimateTotal} estimated vs ${exactTotal} exact (${pct((estimateTotal - exactTotal) / exactTotal)})`,
);
