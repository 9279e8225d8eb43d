/**
 * `pnpm conformance`: every adapter over every case, then docs/conformance.md regenerated from the
 * results (report.ts); cases.schema.json regenerated from the zod schema (case-schema.ts). Needs the build (the root script runs `pnpm build` first): the skillctx adapters
 * import the built packages and run the built CLI.
 *   tsx packages/conformance/src/run-all.ts [--out FILE]      (default: docs/conformance.md)
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { deepagentsAdapter } from "./adapters/deepagents.js";
import { mastraAdapter } from "./adapters/mastra.js";
import { openaiAgentsAdapter } from "./adapters/openai-agents.js";
import { skillctxCliAdapter } from "./adapters/skillctx-cli.js";
import { skillctxLibraryAdapter } from "./adapters/skillctx-library.js";
import { strandsAdapter } from "./adapters/strands.js";
import { casesJsonSchema } from "./case-schema.js";
import { renderReport } from "./report.js";
import { runConformance, tally } from "./runner.js";

const at = process.argv.indexOf("--out");
const out = at === -1 ? fileURLToPath(new URL("../../../docs/conformance.md", import.meta.url)) : process.argv[at + 1]!;
const schema = fileURLToPath(new URL("../cases.schema.json", import.meta.url));
await writeFile(schema, `${JSON.stringify(casesJsonSchema(), null, 2)}\n`);
const started = performance.now();
const all = await runConformance(
  [
    skillctxLibraryAdapter(),
    skillctxCliAdapter(),
    openaiAgentsAdapter(),
    mastraAdapter(),
    deepagentsAdapter(),
    strandsAdapter(),
  ],
  {
    onAdapter: ({ adapter, results }) => {
      const t = tally(results);
      process.stdout.write(`${adapter}: ${t.holds} hold, ${t.fails} fail, ${t.unsupported} not supported\n`);
    },
  },
);
await writeFile(out, renderReport(all));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`wrote ${out} (${seconds} s, Node ${process.version})\n`);
