import { createSkillIndex, DEFAULT_MIN_SEARCH_SCORE, requestTerms } from "@skillctx/core";
import type { SkillMatch } from "@skillctx/core";
import { notLoadableReason } from "@skillctx/engine/internal";
import { commandSpec } from "./command-specs.js";
import { envelopeText } from "./envelope.js";
import { writeFindings } from "./findings.js";
import { EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { openContext } from "./load.js";
import { parseFlags } from "./options.js";

// Rows shown: the ones a search_skills call could return, and a few below the cut-off for authors.
const SHOWN = 10;

/** `skillctx search "request"`: the ranking `search_skills` makes, the cut-off, and with `--explain` the words that matched. */
export const searchCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("search").flags, { positionals: true });
    if (flags.positionals.length === 0)
      throw new UsageError('expected a REQUEST, such as skillctx search "fill a pdf form"');
    const request = flags.positionals.join(" ");
    const { ctx, diagnostics } = await openContext(flags, io, { guidance: false });
    try {
      // As search_skills: the skills the model may load (not user-only skills or commands).
      const skills = ctx.skills.filter((skill) => notLoadableReason(skill) === undefined);
      const index = createSkillIndex();
      const ranked = await index.search(skills, request, { limit: SHOWN, minScore: 0, signal: io.signal });
      // What search_skills returns: the same index with its calibrated cut-off.
      const returned = new Set(
        (await index.search(skills, request, { limit: SHOWN, signal: io.signal })).map((m) => m.name),
      );
      const terms = await requestTerms(request);
      if (flags.bool("json")) {
        io.stdout.write(
          envelopeText(
            "search",
            {
              request,
              terms,
              cutOff: DEFAULT_MIN_SEARCH_SCORE,
              results: ranked.map((m) => ({ ...m, returned: returned.has(m.name) })),
            },
            diagnostics,
          ),
        );
        return EXIT_OK;
      }
      io.stdout.write(formatRanking({ request, terms, ranked, returned, explain: flags.bool("explain") }));
      writeFindings(diagnostics, (t) => io.stderr.write(t), { command: "search", columns: io.columns });
      return EXIT_OK;
    } finally {
      await ctx.close();
    }
  },
};

/** The ranking as text: one line per skill with its score, a line where search_skills stops, and with `explain` the matched words. */
export function formatRanking(shown: {
  request: string;
  terms: readonly string[];
  ranked: readonly SkillMatch[];
  returned: ReadonlySet<string>;
  explain: boolean;
}): string {
  const { terms, ranked, returned } = shown;
  const lines = [
    `request: ${JSON.stringify(shown.request)}`,
    `words searched: ${terms.length === 0 ? "(none: only stop words)" : terms.join(" ")}`,
  ];
  if (ranked.length === 0) {
    lines.push("no skill matches any of these words: search_skills answers that no skill matches.");
    return `${lines.join("\n")}\n`;
  }
  if (returned.size === 0)
    lines.push(
      `-- the best score is below the cut-off (${DEFAULT_MIN_SEARCH_SCORE}): search_skills returns nothing --`,
    );
  const width = Math.max(...ranked.map((m) => m.name.length));
  ranked.forEach((match, i) => {
    if (i > 0 && returned.size > 0 && returned.has(ranked[i - 1]!.name) && !returned.has(match.name))
      lines.push("-- below here: not returned by search_skills --");
    lines.push(`${String(i + 1).padStart(2)}. ${match.name.padEnd(width)}  ${match.score.toFixed(2).padStart(6)}`);
    if (shown.explain) for (const m of match.matched) lines.push(`      ${m.term}: ${m.fields.join(", ")}`);
  });
  return `${lines.join("\n")}\n`;
}
