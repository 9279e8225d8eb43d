import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { defaultCacheDir } from "@skillctx/sources";
import { LOCKFILE_NAME, pruneLockfile } from "@skillctx/sources/resolve";
import { readProjectSources, SOURCES_FILE_NAME } from "@skillctx/sources/resolve";
import { cacheEntryOf, pruneRemoteCache, resolveSources, sourceKey } from "@skillctx/sources/resolve";
import { commandSpec } from "./command-specs.js";
import { envelopeText } from "./envelope.js";
import { writeFindings } from "./findings.js";
import { printable } from "./format.js";
import { EXIT_FINDINGS, EXIT_OK } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { parseFlags, resolveCwd } from "./options.js";

/**
 * `skillctx sync [--cwd DIR] [--frozen] [--offline] [--trust] [--json]`: resolves the remote sources listed in
 * `<cwd>/skills.json` into the cache and records them in `<cwd>/skills.lock.json` (entries of sources
 * no longer listed are pruned). With `--frozen` the lock is only checked: a source missing from it or
 * drifted from it is refused, nothing is written, and the exit code is 1.
 */
export const syncCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("sync").flags);
    const cwd = resolveCwd(flags.string("cwd"));
    const frozen = flags.bool("frozen");
    const listed = await readProjectSources(cwd);
    const diagnostics: Diagnostic[] = [...listed.diagnostics];
    if (!listed.exists && diagnostics.length === 0) {
      diagnostics.push(
        diagnostic(
          "SOURCES_FILE_MISSING",
          "error",
          `no ${SOURCES_FILE_NAME} in ${cwd}: list remote sources there as { "sources": [ { "git": URL, "ref": REF }, { "url": URL } ] }`,
        ),
      );
    }
    const cacheDir = defaultCacheDir();
    const resolved = await resolveSources(listed.sources, {
      cwd,
      cacheDir,
      lock: frozen ? "frozen" : "update",
      offline: flags.bool("offline"),
      signal: io.signal,
      // skills.json is repository content: a source that would start a program needs --trust.
      declaredBy: "project",
      trust: { project: flags.bool("trust") },
    });
    diagnostics.push(...resolved.diagnostics);
    let pruned: string[] = [];
    // A sources file with invalid entries would prune what it failed to list: leave the lock alone then.
    if (!frozen && listed.exists && listed.diagnostics.length === 0)
      pruned = await pruneLockfile(cwd, new Set(listed.sources.map(sourceKey)));
    // Cache entries no resolution used for 30 days go (never one this sync loaded); --frozen writes nothing.
    const inUse = new Set(
      resolved.remote.flatMap((r) => r.skills.map((s) => cacheEntryOf(cacheDir, s.dir) ?? "")).filter((e) => e !== ""),
    );
    // Not after a failed resolution: an old entry may be the only copy an offline machine has.
    const resolvedCleanly = !resolved.diagnostics.some((d) => d.severity === "error");
    const cachePruned = frozen || !resolvedCleanly ? [] : (await pruneRemoteCache(cacheDir, { inUse })).removed;

    const sources = resolved.remote.map((r) => ({
      key: r.key,
      origin: r.origin,
      ...(r.resolved.commit !== undefined && { commit: r.resolved.commit }),
      ...(r.resolved.revision !== undefined && { revision: r.resolved.revision }),
      skills: r.skills.map((s) => ({ name: s.name, digest: s.digest, dir: s.dir })),
      ok: !r.diagnostics.some((d) => d.severity === "error"),
    }));
    const failed = diagnostics.some((d) => d.severity === "error");
    if (flags.bool("json")) {
      io.stdout.write(
        envelopeText("sync", { lockfile: LOCKFILE_NAME, frozen, sources, pruned, cachePruned }, diagnostics),
      );
    } else {
      const lines: string[] = [];
      for (const source of sources) {
        const at = source.commit ?? source.revision ?? "-";
        lines.push(
          `${source.ok ? "ok     " : "FAILED "} ${printable(source.key)}  ${at}  ${source.skills.length} skill${source.skills.length === 1 ? "" : "s"}`,
        );
        for (const skill of source.skills) lines.push(`         ${printable(skill.name)}  ${skill.digest}`);
      }
      for (const key of pruned) lines.push(`pruned  ${printable(key)}`);
      if (cachePruned.length > 0)
        lines.push(
          `cache   ${cachePruned.length} entr${cachePruned.length === 1 ? "y" : "ies"} unused for 30 days removed`,
        );
      if (lines.length > 0) io.stdout.write(`${lines.join("\n")}\n`);
      writeFindings(diagnostics, (t) => io.stderr.write(t), { command: "sync", columns: io.columns });
    }
    return failed ? EXIT_FINDINGS : EXIT_OK;
  },
};
