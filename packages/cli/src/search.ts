import { createSkillIndex, DEFAULT_CONFIDENT_SCORE, requestTerms } from "@skillctx/core";
import type { SkillMatch } from "@skillctx/core";
import { notLoadableReason } from "@skillctx/engine/internal";
import { commandSpec } from "./command-specs.js";
import { envelopeText } from "./envelope.js";
import { writeFindings } from "./findings.js";
import { printableLine } from "./format.js";
import { EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { openContext } from "./load.js";
import { parseFlags } from "./options.js";

// Rows shown: the ones a search_skills call returns by default.
const SHOWN = 10;

/** `skillctx search "request"`: the ranking `search_skills` makes, each result's confidence, and with `--explain` the words that matched. */
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
      const ranked = await createSkillIndex().search(skills, request, { limit: SHOWN, signal: io.signal });
      const terms = await requestTerms(request);
      if (flags.bool("json")) {
        io.stdout.write(
          envelopeText(
            "search",
            {
              request,
              terms,
              confidentScore: DEFAULT_CONFIDENT_SCORE,
              results: ranked,
            },
            diagnostics,
          ),
        );
        return EXIT_OK;
      }
      io.stdout.write(formatRanking({ request, terms, ranked, explain: flags.bool("explain") }));
      writeFindings(diagnostics, (t) => io.stderr.write(t), { command: "search", columns: io.columns });
      return EXIT_OK;
    } finally {
      await ctx.close();
    }
  },
};

/** The ranking as text: one line per skill with its score, a line where weak matches start, and with `explain` the matched words. */
export function formatRanking(shown: {
  request: string;
  terms: readonly string[];
  ranked: readonly SkillMatch[];
  explain: boolean;
}): string {
  const { ranked } = shown;
  // Every name, word and field comes from skill files or the request: escaped for the terminal (format.ts).
  const terms = shown.terms.map(printableLine);
  const names = ranked.map((m) => printableLine(m.name));
  const lines = [
    `request: ${printableLine(JSON.stringify(shown.request))}`,
    `words searched: ${terms.length === 0 ? "(none: only stop words)" : terms.join(" ")}`,
  ];
  if (ranked.length === 0) {
    lines.push("no skill matches any of these words: search_skills answers that no skill matches.");
    return `${lines.join("\n")}\n`;
  }
  const weak = `-- below here: weak matches (score under ${DEFAULT_CONFIDENT_SCORE}): search_skills marks them so --`;
  if (ranked[0]!.confidence === "low")
    lines.push(
      `-- no skill clearly matches: even the best score is under ${DEFAULT_CONFIDENT_SCORE} (a weak match) --`,
    );
  const width = Math.max(...names.map((name) => name.length));
  ranked.forEach((match, i) => {
    if (i > 0 && ranked[i - 1]!.confidence === "high" && match.confidence === "low") lines.push(weak);
    lines.push(`${String(i + 1).padStart(2)}. ${names[i]!.padEnd(width)}  ${match.score.toFixed(2).padStart(6)}`);
    if (shown.explain)
      for (const m of match.matched)
        lines.push(`      ${printableLine(m.term)}: ${m.fields.map(printableLine).join(", ")}`);
  });
  return `${lines.join("\n")}\n`;
}
