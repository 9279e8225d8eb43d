/**
 * Typed tools from a skill's Python scripts: `scripts/*.py` with a `main()` whose parameters are
 * annotated become tools whose JSON Schema comes from the signature and docstring, read with the
 * interpreter's own `ast` module (never by running the script). See docs/script-tools.md.
 *
 * Per skill folder: the scripts are listed with core's `walk` (contained in the folder), each is read
 * with `readTextFile` (containment, size cap, strict UTF-8) and hashed, and the ones not seen before
 * (by real path, size and mtime) go to one `python3 -I` reader call. A call runs `main(**args)` in a
 * child Python through `@skillctx/process`, behind the same trust gate as `run_skill_script`.
 */
import { createHash, errorText } from "@skillctx/core/internal";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic, Skill, Trust } from "@skillctx/core";
import { readTextFile, resolveInside, walk } from "@skillctx/core/internal";
import { DEFAULT_MAX_OUTPUT_BYTES } from "@skillctx/process";
import { verifiedFolderChange } from "@skillctx/sources";
import type { EventSink } from "../events/types.js";
import { DEFAULT_SCRIPT_TIMEOUT_MS, skillFolder } from "../tool-kit/skill-folder.js";
import { normalizeArgs } from "../tool-kit/tool-args.js";
import { callMain } from "./python/call-main.js";
import { findUv, unmanagedDependencies, untrustedScriptMessage } from "./python/launch.js";
import { MAX_CACHED_SIGNATURES, MAX_SCRIPT_SOURCE_BYTES, MAX_SCRIPTS_PER_SKILL } from "../limits.js";
import { scriptMetadata } from "./python/pep723.js";
import type { ScriptMetadata } from "./python/pep723.js";
import { readSignatures } from "./python/reader.js";
import type { FileReading } from "./python/reader.js";
import { scriptToolSpec } from "./python/tool-spec.js";
import type { ScriptPlace, ScriptToolSpec } from "./python/tool-spec.js";
import { compileJsonSchema, invalidArguments } from "./tool-input.js";
import type { CompiledInput } from "./tool-input.js";
import type { CodeTool } from "./skill-code.js";

/** What deriving and running script tools needs from the context. */
export interface ScriptToolsContext {
  trust: Trust | undefined;
  /** Per call. @default 30000 */
  timeoutMs?: number | undefined;
  /** Bytes of stdout kept per call. */
  maxOutputBytes?: number | undefined;
  events: EventSink;
  signal?: AbortSignal | undefined;
  /** Extra environment of each call (wins over the allowlist and `PYTHONPATH`), like `tools.skillTools.scripts.env`. */
  env?: Record<string, string> | undefined;
  /** The interpreter that reads signatures and runs calls. @default "python3" */
  python?: string | undefined;
}

/** What is remembered of one script file (by real path, size and mtime). */
interface ScriptEntry {
  reading: FileReading | undefined;
  /** Why the file was not read (too large, not UTF-8, ...). */
  failure?: string | undefined;
  metadata: ScriptMetadata | { error: string } | undefined;
}

const cache = new Map<string, ScriptEntry>();

/** The typed tools of `skill`'s scripts (memoised per skill folder and file stats), with diagnostics for scripts that have none. */
export async function scriptToolsOf(
  skill: Skill,
  context: ScriptToolsContext,
): Promise<{ tools: CodeTool[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const tools: CodeTool[] = [];
  const dir = skillFolder(skill);
  if (dir === undefined) return { tools, diagnostics };
  const scripts = await resolveInside(dir, "scripts");
  if (!scripts.ok) {
    if (scripts.missing !== true)
      diagnostics.push(
        diagnostic("SCRIPT_READ_FAILED", "warning", `scripts/ of the skill "${skill.name}": ${scripts.reason}`, {
          path: path.join(dir, "scripts"),
        }),
      );
    return { tools, diagnostics };
  }
  if (!scripts.stats.isDirectory()) return { tools, diagnostics };
  const root = await realpath(dir).catch(() => undefined);
  if (root === undefined) return { tools, diagnostics };
  const files = await listScripts(scripts.realPath, root, diagnostics, context.signal);

  const entries = new Map<string, { key: string; file: string; realPath: string }>();
  const pending: { key: string; realPath: string; sha256: string; metadata: ScriptEntry["metadata"] }[] = [];
  for (const name of files) {
    const file = path.join(scripts.realPath, name);
    const resolved = await resolveInside(root, `scripts/${name}`);
    if (!resolved.ok || !resolved.stats.isFile()) {
      diagnostics.push(
        diagnostic(
          "SCRIPT_READ_FAILED",
          "warning",
          `scripts/${name}: ${resolved.ok ? "not a regular file" : resolved.reason}`,
          { path: file },
        ),
      );
      continue;
    }
    const key = `${resolved.realPath}\0${resolved.stats.size}\0${resolved.stats.mtimeMs}`;
    entries.set(name, { key, file, realPath: resolved.realPath });
    if (cache.has(key)) continue;
    const read = await readTextFile(resolved.realPath, {
      root,
      maxBytes: MAX_SCRIPT_SOURCE_BYTES,
      signal: context.signal,
    });
    if (!read.ok) {
      remember(key, { reading: undefined, failure: read.message, metadata: undefined });
      continue;
    }
    const sha256 = createHash("sha256").update(read.text).digest("hex");
    pending.push({ key, realPath: read.realPath, sha256, metadata: scriptMetadata(read.text) });
  }
  if (pending.length > 0) {
    const answer = await readOnce(pending, { cwd: root, python: context.python, signal: context.signal });
    if ("error" in answer) {
      diagnostics.push(
        diagnostic(
          "SCRIPT_SIGNATURES_UNREAD",
          "warning",
          `The scripts of the skill "${skill.name}" are not typed tools: ${answer.error}.`,
          { path: scripts.realPath },
        ),
      );
    } else {
      pending.forEach((item, index) => {
        remember(item.key, { reading: answer.readings[index], metadata: item.metadata });
      });
    }
  }

  const names = new Set<string>();
  for (const [name, { key, file, realPath }] of entries) {
    const entry = cache.get(key);
    if (entry === undefined) continue; // the reader failed for the whole folder (reported above)
    const shown = `scripts/${name}`;
    const built = toolOf(skill, entry, { file, realPath, shown, root }, context, diagnostics);
    if (built === undefined) continue;
    if (names.has(built.name)) {
      diagnostics.push(
        diagnostic(
          "SCRIPT_TOOL_NAME_CLASH",
          "warning",
          `${shown} would be the tool "${built.name}", which another script of the skill "${skill.name}" already is; it stays reachable through run_skill_script.`,
          { path: file },
        ),
      );
      continue;
    }
    names.add(built.name);
    tools.push(built);
  }
  return { tools, diagnostics };
}

/** The `.py` files directly in `scripts/` (no hidden or `_` names), in code-point order, at most {@link MAX_SCRIPTS_PER_SKILL}. */
async function listScripts(
  scriptsDir: string,
  root: string,
  diagnostics: Diagnostic[],
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const names: string[] = [];
  const walked = await walk(scriptsDir, {
    containRoot: root,
    maxDepth: 1,
    maxEntries: MAX_SCRIPTS_PER_SKILL * 16,
    signal,
    skip: (name) => name.startsWith(".") || name.startsWith("_"),
    report: (_relative, name) => name.endsWith(".py"),
    visit: (entry) => {
      if (entry.type === "file" && entry.depth === 1 && entry.name.endsWith(".py")) names.push(entry.name);
      return false;
    },
  });
  diagnostics.push(...walked.diagnostics);
  if (names.length > MAX_SCRIPTS_PER_SKILL) {
    diagnostics.push(
      diagnostic(
        "SCRIPT_LIMIT",
        "warning",
        `${names.length} scripts in ${scriptsDir}: the first ${MAX_SCRIPTS_PER_SKILL} were read for typed tools; the rest stay reachable through run_skill_script.`,
        {
          path: scriptsDir,
        },
      ),
    );
  }
  return names.slice(0, MAX_SCRIPTS_PER_SKILL);
}

function toolOf(
  skill: Skill,
  entry: ScriptEntry,
  where: { file: string; realPath: string; shown: string; root: string },
  context: ScriptToolsContext,
  diagnostics: Diagnostic[],
): CodeTool | undefined {
  const { file, shown } = where;
  if (entry.reading === undefined) {
    diagnostics.push(
      diagnostic(
        "SCRIPT_READ_FAILED",
        "warning",
        `${shown} was not read for a typed tool (${entry.failure ?? "unknown reason"}); it stays reachable through run_skill_script.`,
        { path: file },
      ),
    );
    return undefined;
  }
  if (!entry.reading.ok) {
    const line = entry.reading.line ?? undefined;
    diagnostics.push(
      diagnostic(
        "SCRIPT_PARSE_FAILED",
        "warning",
        `${shown} does not parse (${entry.reading.error}), so it is not a typed tool; it stays reachable through run_skill_script.`,
        { path: file, line },
      ),
    );
    return undefined;
  }
  const built = compiledSpec(entry, entry.reading, { file, shown, skill: skill.name });
  if ("diagnostic" in built) {
    diagnostics.push(built.diagnostic);
    return undefined;
  }
  const metadata = entry.metadata !== undefined && "error" in entry.metadata ? undefined : entry.metadata;
  if (entry.metadata !== undefined && "error" in entry.metadata) {
    diagnostics.push(
      diagnostic(
        "SCRIPT_METADATA_INVALID",
        "warning",
        `${shown}: its PEP 723 metadata is invalid (${entry.metadata.error}); it runs with python3.`,
        { path: file },
      ),
    );
  } else if (metadata !== undefined && findUv() === undefined) {
    diagnostics.push(unmanagedDependencies(metadata, file, shown));
  }
  const { spec, input } = built;
  return {
    name: spec.name,
    localName: spec.name,
    skill,
    description: spec.description,
    inputSchema: spec.inputSchema,
    kind: "script",
    async run(args, run) {
      const refused = untrustedScriptMessage(skill, context.trust) ?? (await verifiedFolderChange(skill, run.signal));
      if (refused !== undefined) return { result: { content: refused, isError: true } };
      const checked = input.parse(args);
      if (!checked.ok) return { result: invalidArguments(spec.name, checked.message) };
      // Checked, then passed as sent: main()'s own defaults apply, and no key is lost to the checker's parse.
      const sent = normalizeArgs(args);
      if (!sent.ok || typeof sent.value !== "object" || sent.value === null || Array.isArray(sent.value)) {
        return { result: { content: `The arguments of ${spec.name} must be a JSON object.`, isError: true } };
      }
      const result = await callMain({
        skill,
        skillDir: where.root,
        file: where.realPath,
        shown,
        metadata,
        args: sent.value as Record<string, unknown>,
        tuples: spec.tuples,
        timeoutMs: context.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS,
        maxOutputBytes: context.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        env: context.env,
        python: context.python,
        events: context.events,
        signal: run.signal,
      });
      return { result };
    },
  };
}

type Compiled = { spec: ScriptToolSpec; input: CompiledInput } | { diagnostic: Diagnostic };
// Per remembered file, by skill and path (the description and messages name them).
const compiled = new WeakMap<ScriptEntry, Map<string, Compiled>>();

/** The tool spec of a parsed script and the checker of its arguments, made once per remembered file. */
function compiledSpec(entry: ScriptEntry, reading: Extract<FileReading, { ok: true }>, place: ScriptPlace): Compiled {
  let byPlace = compiled.get(entry);
  if (byPlace === undefined) compiled.set(entry, (byPlace = new Map()));
  const key = `${place.skill}\0${place.file}`;
  let made = byPlace.get(key);
  if (made === undefined) {
    const built = scriptToolSpec(reading, place);
    if ("diagnostic" in built) made = built;
    else {
      try {
        made = { spec: built.spec, input: compileJsonSchema(built.spec.inputSchema, place.shown) };
      } catch (error) {
        const why = errorText(error);
        made = {
          diagnostic: diagnostic(
            "SCRIPT_UNSUPPORTED_TYPE",
            "warning",
            `${place.shown}: its schema cannot be checked (${why}); it stays reachable through run_skill_script.`,
            { path: place.file },
          ),
        };
      }
    }
    byPlace.set(key, made);
  }
  return made;
}

type ReaderAnswer = Awaited<ReturnType<typeof readSignatures>>;
const inFlight = new Map<string, Promise<ReaderAnswer>>();

// Concurrent derivations of the same files (two contexts over one skill folder) share one reader call.
async function readOnce(
  pending: readonly { key: string; realPath: string; sha256: string }[],
  options: Parameters<typeof readSignatures>[1],
): Promise<ReaderAnswer> {
  const key = `${options.python ?? ""}\n${pending.map((item) => item.key).join("\n")}`;
  let answer = inFlight.get(key);
  if (answer === undefined) {
    answer = readSignatures(pending, options).finally(() => inFlight.delete(key));
    inFlight.set(key, answer);
  }
  try {
    return await answer;
  } catch (error) {
    // The caller that started the shared read was aborted; this one was not: read on its own.
    if (options.signal?.aborted === true) throw error;
    return readSignatures(pending, options);
  }
}

function remember(key: string, entry: ScriptEntry): void {
  if (cache.size >= MAX_CACHED_SIGNATURES) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(key, entry);
}
