import * as path from "node:path";
import type { Diagnostic } from "@skillctx/core";
import { AgentContext } from "@skillctx/engine";
import type { ContextStep } from "@skillctx/engine";
import type { AgentContextOptions, EmulatedAgent } from "@skillctx/engine";
import type { Templates } from "@skillctx/engine";
import type { CliIo } from "./io.js";
import { catalogOptions, resolveCwd, userSkills } from "./options.js";
import type { Flags } from "./options.js";

/**
 * The wording the CLI puts where the engine's templates name library options: an untrusted command
 * says which flag allows it. Used by every command that renders (`build`, `list`, `catalog` through
 * the engine, `render` directly).
 */
export const cliTemplates: Pick<Templates, "untrustedCommand"> = {
  untrustedCommand(command, scope, origin) {
    if (scope === "remote")
      return `[Not run: \`${command}\` comes from a remote skill served by ${JSON.stringify(origin ?? "")}, which is not trusted.]`;
    return scope === "project"
      ? `[Not run: \`${command}\` comes from a project skill, which is not trusted. Run skillctx with --trust to allow it.]`
      : `[Not run: \`${command}\` comes from a user skill, which is not trusted.]`;
  },
};

/** A context opened the way an agent would open it, with the diagnostics of loading. */
export interface LoadedContext {
  ctx: AgentContext;
  cwd: string;
  /** The first step (no messages): `system`, `tools`, and what loading reported in its `diagnostics`. */
  first: ContextStep;
  /** What discovery, guidance and the catalog reported (the first step's diagnostics). */
  diagnostics: Diagnostic[];
}

/**
 * The CLI's one loading path: every command that shows skills opens an `AgentContext` with the
 * shared flags (`--cwd`, `--user`/`--no-user`, `--trust`, `--model`, `--skills`, and `--format` /
 * `--budget` for the catalog), so it sees exactly the skill set, guidance and catalog an agent there gets. `io.signal` aborts loading; the caller
 * closes the context (`close()` stops whatever it started).
 */
export async function openContext(
  flags: Flags,
  io: CliIo,
  extra: Partial<AgentContextOptions> = {},
): Promise<LoadedContext> {
  const cwd = resolveCwd(flags.string("cwd"));
  io.signal?.throwIfAborted();
  const skills = flags.list("skills").map((p) => path.resolve(p));
  const emulate = flags.string("emulate");
  const rootMarkers = flags.list("root-marker");
  const ctx = await AgentContext.create({
    cwd,
    sources: {
      userSkills: userSkills(flags),
      ...(rootMarkers.length > 0 && { projectRootMarkers: rootMarkers }),
    },
    // Only `project` is set: user skills stay trusted by default, and guidance may not read outside
    // the project (that needs `user: true` given explicitly, which the CLI never does).
    trust: { project: flags.bool("trust") },
    conversation: {
      templates: cliTemplates,
    },
    ...(flags.string("model") !== undefined && { model: flags.string("model") }),
    ...(skills.length > 0 && { skills }),
    // The engine checks the name (INVALID_OPTIONS lists the agents it knows).
    ...(emulate !== undefined && { guidance: { emulate: emulate as EmulatedAgent } }),
    catalog: catalogOptions(flags),
    ...(io.signal !== undefined && { signal: io.signal }),
    ...extra,
  });
  try {
    // The first step carries what loading reported; with no messages it runs nothing.
    const first = await ctx.buildContext([], io.signal === undefined ? {} : { signal: io.signal });
    const diagnostics = first.diagnostics.map((d) => withTrustHint(d, flags.bool("trust")));
    return { ctx, cwd, first: { ...first, diagnostics }, diagnostics };
  } catch (error) {
    await ctx.close();
    throw error;
  }
}

/** Whether any finding is an error (exit 1). */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/**
 * `MCP_SDK_MISSING` under `--trust`: the servers it names start because the project is trusted, so the
 * hint says both ways out (install the SDK, or leave out --trust and the project's servers do not start).
 */
export function withTrustHint(d: Diagnostic, trusted: boolean): Diagnostic {
  if (d.code !== "MCP_SDK_MISSING" || !trusted) return d;
  return { ...d, message: `${d.message}; or leave out --trust: the project's MCP servers then do not start` };
}
