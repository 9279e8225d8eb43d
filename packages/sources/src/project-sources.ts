import { MAX_SOURCES_FILE_BYTES } from "./limits.js";
import * as path from "node:path";
import { lazySchemas } from "@skillctx/core/internal";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { readTextFile } from "@skillctx/core/internal";
import type { RemoteSkillSource } from "./types.js";
import { safeParseJson } from "@skillctx/core/internal";

/** The project's list of remote sources, at its root beside `skills.lock.json` (as package.json beside its lock). */
export const SOURCES_FILE_NAME = "skills.json";

// Built on first use (zod loads then).
const schemas = lazySchemas((z) => ({
  git: z.strictObject({
    git: z.string().min(1),
    ref: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
  }),
  url: z.strictObject({
    url: z.string().min(1),
    name: z.string().min(1).optional(),
    ttlMs: z.number().int().positive().optional(),
  }),
  mcp: z.strictObject({
    mcp: z.record(z.string(), z.unknown()),
    name: z.string().min(1),
    ttlMs: z.number().int().positive().optional(),
  }),
  /** `skills.json`: `{ "sources": [ { "git", "ref"?, "path"?, "name"? } | { "url", "name"?, "ttlMs"? } | { "mcp", "name", "ttlMs"? } ] }`. */
  file: z.object({ sources: z.array(z.unknown()) }),
}));

/** What `skills.json` lists: the valid entries, and a diagnostic per invalid one (the others still count). */
export interface ProjectSources {
  file: string;
  exists: boolean;
  sources: RemoteSkillSource[];
  diagnostics: Diagnostic[];
}

/**
 * Reads `<cwd>/skills.json` through the one file reader (regular file, capped). A missing file lists
 * nothing; a file that is not JSON or has no `sources` array is an error; each entry is checked on its
 * own (exactly one of `git`, `url`, `mcp`, no unknown fields), and a bad one is reported and left out.
 */
export async function readProjectSources(cwd: string): Promise<ProjectSources> {
  const file = path.join(cwd, SOURCES_FILE_NAME);
  const out: ProjectSources = { file, exists: false, sources: [], diagnostics: [] };
  // Contained in the project: a skills.json symlinked out of the repository is refused before it is opened.
  const read = await readTextFile(file, { maxBytes: MAX_SOURCES_FILE_BYTES, root: cwd });
  if (!read.ok) {
    if (read.code !== "NOT_FOUND")
      out.diagnostics.push(diagnostic("SOURCES_FILE_INVALID", "error", read.message, { path: file }));
    return out;
  }
  out.exists = true;
  const jsonRead = safeParseJson(read.text);
  if (!jsonRead.ok) {
    out.diagnostics.push(
      diagnostic("SOURCES_FILE_INVALID", "error", `${SOURCES_FILE_NAME} is not JSON: ${jsonRead.error}`, {
        path: file,
      }),
    );
    return out;
  }
  const json = jsonRead.value;
  const parsed = schemas().file.safeParse(json);
  if (!parsed.success) {
    out.diagnostics.push(
      diagnostic("SOURCES_FILE_INVALID", "error", `${SOURCES_FILE_NAME} must be an object with a "sources" array`, {
        path: file,
      }),
    );
    return out;
  }
  for (const [i, entry] of parsed.data.sources.entries()) {
    const kind = typeof entry === "object" && entry !== null ? ["git", "url", "mcp"].filter((k) => k in entry) : [];
    const schema = kind.length === 1 ? schemas()[kind[0] as "git" | "url" | "mcp"] : undefined;
    const checked = schema?.safeParse(entry);
    if (checked === undefined || !checked.success) {
      const why =
        schema === undefined
          ? "needs exactly one of git, url or mcp"
          : checked!.error!.issues.map((issue) => `${issue.path.join(".") || "(entry)"}: ${issue.message}`).join("; ");
      out.diagnostics.push(
        diagnostic("SOURCES_FILE_INVALID", "error", `${SOURCES_FILE_NAME} sources[${i}] ${why}; it is left out`, {
          path: file,
        }),
      );
      continue;
    }
    out.sources.push(checked.data as RemoteSkillSource);
  }
  return out;
}
