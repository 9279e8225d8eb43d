import { TOKENIZER } from "@skillctx/core";
import { commandSpec } from "./command-specs.js";
import { envelopeText } from "./envelope.js";
import { writeFindings } from "./findings.js";
import { printable } from "./format.js";
import { EXIT_FINDINGS, EXIT_OK } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { hasErrors, openContext } from "./load.js";
import { catalogOptions, parseFlags } from "./options.js";

/**
 * `skillctx catalog`: `ctx.catalog` of a context opened in `--cwd`, the very catalog `build` puts in
 * `system`: its text on stdout; its token count, degradation level and listed / left-out counts on stderr.
 */
export const catalogCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("catalog").flags);
    const catalog = catalogOptions(flags);
    const { format } = catalog;
    const budgetTokens = catalog.budgetTokens;

    const { ctx, diagnostics } = await openContext(flags, io);
    try {
      const shown = ctx.catalog;
      const text = shown?.text ?? "";
      const tokens = shown?.tokens ?? 0;
      const level = shown?.level ?? "full";
      const included = shown?.included ?? [];
      const omitted = shown?.omitted ?? [];
      if (flags.bool("json")) {
        io.stdout.write(
          envelopeText(
            "catalog",
            {
              format,
              budgetTokens: budgetTokens ?? null,
              tokenizer: TOKENIZER,
              text,
              tokens,
              level,
              included,
              omitted,
            },
            diagnostics,
          ),
        );
      } else {
        if (text !== "") io.stdout.write(`${printable(text)}\n`);
        writeFindings(diagnostics, (t) => io.stderr.write(t), { command: "catalog", columns: io.columns });
        const total = included.length + omitted.length;
        const budget = budgetTokens === undefined ? "no budget" : `budget ${budgetTokens}`;
        const left = omitted.length > 0 ? `, ${omitted.length} left out (found with search_skills)` : "";
        io.stderr.write(
          `catalog: ${tokens} tokens (${TOKENIZER}), ${budget}, level ${level}, ${included.length} of ${total} skills listed${left}\n`,
        );
      }
      return hasErrors(diagnostics) ? EXIT_FINDINGS : EXIT_OK;
    } finally {
      await ctx.close();
    }
  },
};
