/**
 * Runs the signature reader (`reader-source.ts`) once over a batch of scripts through `@skillctx/process`
 * and checks its answer: what comes back is untrusted data shaped by the scripts, so it is parsed with
 * zod and anything else becomes an error per file, never a throw.
 */
import { runProcess } from "@skillctx/process";
import { ellipsizeUtf16, lazySchemas } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import { MAX_SCRIPT_SOURCE_BYTES, READER_MAX_OUTPUT_BYTES, READER_TIMEOUT_MS } from "../../limits.js";
import { READER_SOURCE } from "./reader-source.js";
import { safeParseJson } from "@skillctx/core/internal";

/** An annotation as the reader saw it (a small tree; see `annotation-schema.ts`). */
export type AnnotationNode =
  | { k: "name"; id: string }
  | { k: "const"; v: string | number | boolean | null }
  | { k: "str"; v: string; parsed?: AnnotationNode | undefined }
  | { k: "ellipsis" }
  | { k: "sub"; base: AnnotationNode; args: AnnotationNode[]; text: string }
  | { k: "or"; args: AnnotationNode[]; text: string }
  | { k: "list"; items: AnnotationNode[] }
  | { k: "other"; text: string; why?: string | undefined };

// Built on first use (zod loads then).
const schemas = lazySchemas((z) => {
  const AnnotationSchema: z.ZodType<AnnotationNode> = z.lazy(() =>
    z.discriminatedUnion("k", [
      z.object({ k: z.literal("name"), id: z.string() }),
      z.object({ k: z.literal("const"), v: z.union([z.string(), z.number(), z.boolean(), z.null()]) }),
      z.object({ k: z.literal("str"), v: z.string(), parsed: AnnotationSchema.optional() }),
      z.object({ k: z.literal("ellipsis") }),
      z.object({ k: z.literal("sub"), base: AnnotationSchema, args: z.array(AnnotationSchema), text: z.string() }),
      z.object({ k: z.literal("or"), args: z.array(AnnotationSchema), text: z.string() }),
      z.object({ k: z.literal("list"), items: z.array(AnnotationSchema) }),
      z.object({ k: z.literal("other"), text: z.string(), why: z.string().optional() }),
    ]),
  );

  const ParamSchema = z.object({
    name: z.string(),
    kind: z.enum(["positional_only", "positional_or_keyword", "var_positional", "keyword_only", "var_keyword"]),
    line: z.number().int(),
    annotation: AnnotationSchema.optional(),
    /** The annotation as written (cut at 200 characters), for diagnostics. */
    text: z.string().optional(),
    default: z.union([z.object({ json: z.unknown() }), z.object({ expr: z.string() })]).optional(),
  });

  const MainSchema = z.union([
    z.object({ line: z.number().int(), tooMany: z.number().int() }),
    z.object({
      line: z.number().int(),
      async: z.boolean(),
      params: z.array(ParamSchema),
      decorators: z.array(z.string()),
      doc: z.string().nullable(),
      returns: z.string().optional(),
    }),
  ]);

  const FileReadingSchema = z.union([
    z.object({ ok: z.literal(true), moduleDoc: z.string().nullable(), main: MainSchema.nullable() }),
    z.object({ ok: z.literal(false), error: z.string(), line: z.number().int().nullable().optional() }),
  ]);

  const AnswerSchema = z.object({ files: z.array(FileReadingSchema) });
  return { ParamSchema, MainSchema, FileReadingSchema, AnswerSchema };
});

export type ScriptParam = z.infer<ReturnType<typeof schemas>["ParamSchema"]>;
export type MainSignature = z.infer<ReturnType<typeof schemas>["MainSchema"]>;
/** What the reader found in one file: its module docstring and `main()`, or why it could not parse it. */
export type FileReading = z.infer<ReturnType<typeof schemas>["FileReadingSchema"]>;

/** One file to read: its real path and the sha256 (hex) of the bytes the caller read and checked. */
export interface ReaderInput {
  realPath: string;
  sha256: string;
}

/** Options of {@link readSignatures}. */
export interface ReadSignaturesOptions {
  /** The interpreter. @default "python3" */
  python?: string | undefined;
  cwd: string;
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Reads the `main()` signatures of `files` with one interpreter call. Resolves with one reading per file,
 * in order, or with `{ error }` when the interpreter could not run or answered nonsense (then no file of
 * the batch has a reading). Rejects only on abort.
 */
export async function readSignatures(
  files: readonly ReaderInput[],
  options: ReadSignaturesOptions,
): Promise<{ readings: FileReading[] } | { error: string }> {
  if (files.length === 0) return { readings: [] };
  const args = ["-I", "-B", "-c", READER_SOURCE, String(MAX_SCRIPT_SOURCE_BYTES)];
  for (const file of files) args.push(file.realPath, file.sha256);
  const timeoutMs = options.timeoutMs ?? READER_TIMEOUT_MS;
  const python = options.python ?? "python3";
  const result = await runProcess(
    { file: python, args },
    { cwd: options.cwd, timeoutMs, maxOutputBytes: READER_MAX_OUTPUT_BYTES, signal: options.signal },
  );
  if (result.error !== undefined) return { error: `${python} could not start (${result.error})` };
  if (result.timedOut) return { error: `the signature reader (${python} -I) was stopped after ${timeoutMs} ms` };
  if (result.truncated) return { error: `the signature reader's answer passed ${READER_MAX_OUTPUT_BYTES} bytes` };
  if (result.exitCode !== 0) {
    const why = result.exitSignal ?? `exit code ${result.exitCode ?? "?"}`;
    return { error: `the signature reader (${python} -I) failed (${why}): ${lastLine(result.stderr)}` };
  }
  const parsed = safeParseJson(result.stdout);
  if (!parsed.ok) return { error: "the signature reader answered something that is not JSON" };
  const answer = schemas().AnswerSchema.safeParse(parsed.value);
  if (!answer.success || answer.data.files.length !== files.length)
    return { error: "the signature reader's answer has an unexpected shape" };
  return { readings: answer.data.files };
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  const line = lines[lines.length - 1] ?? "";
  return ellipsizeUtf16(line, 300) || "(no message)";
}
