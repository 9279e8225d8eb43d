/**
 * The format of a layout's `cases.json`: the expectations as data. The zod schema is the source of truth;
 * `cases.schema.json` beside the package is its JSON Schema (`z.toJSONSchema`), for anyone who reads the
 * corpus without TypeScript (`case-schema.test.ts` checks that the committed file is the generated one).
 * Strict objects: a typo must not pass as an empty expectation.
 */
import { lazySchemas, zod } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";

/** Repository-relative paths (of the layout's `repo/`) and skill names each key lists. */
export const caseSchemas = lazySchemas((z) => {
  const paths = (what: string) => z.array(z.string().min(1)).describe(what);
  const expect = z
    .strictObject({
      guidance: paths("files whose text is always in the system prompt (a symlink alias counts)"),
      guidanceAbsent: paths("files that are not always-on, and whose first distinctive line is not in the prompt"),
      guidanceOnce: paths("files whose first distinctive line is exactly once in the prompt"),
      pathRules: paths("files offered as path-scoped rules (attached when a tool touches a matching file)"),
      pathRulesAbsent: paths("files that are not path-scoped rules"),
      skills: paths("skill names in the catalog"),
      skillsAbsent: paths("skill names not in the catalog"),
      diagnostics: paths("skillctx diagnostic codes the load reports (docs/errors.md)"),
      diagnosticsAbsent: paths("skillctx diagnostic codes the load does not report"),
      activated: paths("files whose text the played step attaches (a keyword, path or command trigger fired)"),
      activatedAbsent: paths("files whose text the played step does not attach"),
    })
    .partial()
    .describe("what must and must not load, and in which form; every key optional");
  const options = z
    .strictObject({
      userSkills: z.boolean().describe("read the user's folders under HOME (skillctx --user)"),
      trust: z.strictObject({ project: z.boolean().optional() }).describe("trust the project (skillctx --trust)"),
      guidance: z
        .strictObject({ emulate: z.string().optional() })
        .describe("the agent emulated: codex, claude-code, gemini-cli, ... (skillctx --emulate)"),
      projectRootMarkers: z.array(z.string().min(1)).describe("names that mark the project root (--root-marker)"),
    })
    .partial()
    .describe("loader options; each has a skillctx CLI flag, so the library and the CLI see the same");
  const testCase = z
    .strictObject({
      id: z.string().min(1).describe("unique within the layout"),
      rule: z.string().min(1).describe("a rule id of the table in docs/conventions.md"),
      source: z.string().min(11).describe("the owner's documentation URL, or `owner/repo path` of its loader or test"),
      cwd: z.string().optional().describe("the working folder, relative to repo/ (default: repo/ itself)"),
      model: z.string().optional().describe("the model the agent runs (the model family gates agent-only files)"),
      options: options.optional(),
      play: z
        .strictObject({
          message: z.string().min(1).optional().describe("a user message the step is built for"),
          touched: z
            .string()
            .min(1)
            .optional()
            .describe("a file under repo/ that the model reads with a read_file tool call, after the message"),
        })
        .optional()
        .describe("one agent step played after the load; a loader that cannot play it answers 'not supported'"),
      setup: z
        .strictObject({ home: z.string().optional().describe("a folder under repo/ used as HOME (default: empty)") })
        .optional(),
      expect,
    })
    .describe("one expectation of a layout");
  const cases = z.array(testCase).describe("a layout's cases.json");
  return { expect, options, testCase, cases };
});

type Schemas = ReturnType<typeof caseSchemas>;
/** What a case expects; every key optional. Paths are relative to the layout's `repo/`. */
export type Expect = z.infer<Schemas["expect"]>;
/** The loader options a case may set. */
export type CaseOptions = z.infer<Schemas["options"]>;
/** One expectation of a layout (one row of its `cases.json`). */
export type Case = z.infer<Schemas["testCase"]>;

/** The JSON Schema of `cases.json` (draft 2020-12), generated from the zod schema. */
export function casesJsonSchema(): Record<string, unknown> {
  const { cases } = caseSchemas();
  return {
    $id: "https://github.com/skillctx/skillctx/blob/main/packages/conformance/cases.schema.json",
    title: "skillctx conformance cases.json",
    ...(zod().toJSONSchema(cases) as Record<string, unknown>),
  };
}
