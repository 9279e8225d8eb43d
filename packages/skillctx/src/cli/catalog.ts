import { statSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { buildCatalog, discoverSkills, TOKENIZER } from "@skillctx/core";
import { EXIT_FINDINGS, EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { formatDiagnostic } from "./format.js";

/**
 * `skillctx catalog`: the catalog an agent in `--cwd` would get in its system prompt, on stdout, and its
 * token count, degradation level and listed / omitted counts on stderr (so stdout can be piped as is).
 */
export const catalogCommand: CliCommand = {
  summary: "print the skill catalog the model would see, with its token count (and how a --budget degrades it)",
  usage: "skillctx catalog [--cwd DIR] [--format xml|markdown] [--budget TOKENS] [--no-user]",
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values } = parseArgs({
      args: argv,
      options: {
        cwd: { type: "string" },
        format: { type: "string" },
        budget: { type: "string" },
        "no-user": { type: "boolean", default: false },
      },
      allowPositionals: false,
    });
    const format = values.format ?? "xml";
    if (format !== "xml" && format !== "markdown") throw new UsageError(`--format must be xml or markdown, got ${format}`);
    let budgetTokens: number | undefined;
    if (values.budget !== undefined) {
      if (!/^\d+$/.test(values.budget)) throw new UsageError(`--budget must be a whole number of tokens, got ${values.budget}`);
      budgetTokens = Number(values.budget);
    }
    const cwd = path.resolve(values.cwd ?? ".");
    if (statSync(cwd, { throwIfNoEntry: false })?.isDirectory() !== true) throw new UsageError(`not a folder: ${cwd}`);

    const found = await discoverSkills({ cwd, userSkills: !values["no-user"] });
    for (const d of found.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
    const catalog = buildCatalog(found.skills, { format, ...(budgetTokens !== undefined && { budgetTokens }) });
    if (catalog.text !== "") io.stdout.write(`${catalog.text}\n`);
    const listed = catalog.included.length;
    const total = listed + catalog.omitted.length;
    const budget = budgetTokens === undefined ? "no budget" : `budget ${budgetTokens}`;
    const omitted = catalog.omitted.length > 0 ? `, ${catalog.omitted.length} left out (found with search_skills)` : "";
    io.stderr.write(`catalog: ${catalog.tokens} tokens (${TOKENIZER}), ${budget}, level ${catalog.level}, ${listed} of ${total} skills listed${omitted}\n`);
    return found.diagnostics.some((d) => d.severity === "error") ? EXIT_FINDINGS : EXIT_OK;
  },
};
