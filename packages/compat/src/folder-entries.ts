import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { compareCodePoints, diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { AGENTS_OVERRIDE_NAME } from "./formats.js";
import type { FileKindSpec } from "./formats.js";

/** A folder entry, symlinks resolved to what they point at. */
export interface Entry {
  name: string;
  isFile: boolean;
  isDir: boolean;
}

/** What picking a folder's guidance files needs from the scan. */
export interface PickOptions {
  diagnostics?: Diagnostic[] | undefined;
  /** Codex is the agent: AGENTS.override.md counts. */
  codex?: boolean | undefined;
}

// Codex skips an empty AGENTS.override.md: AGENTS.md then stands for the folder.
export async function skipEmptyOverride(
  dir: string,
  found: { winner: string; shadowed: string[] } | undefined,
): Promise<{ winner: string; shadowed: string[] } | undefined> {
  if (found === undefined || found.winner !== AGENTS_OVERRIDE_NAME) return found;
  const info = await stat(path.join(dir, found.winner)).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.size > 0) return found;
  const [next, ...rest] = found.shadowed;
  return next === undefined ? undefined : { winner: next, shadowed: rest };
}

// The preferred file of a kind: its names in order, spelt exactly as the owner does; the rest lose.
export function pickFile(
  spec: FileKindSpec,
  byName: Map<string, Entry[]>,
): { winner: string; shadowed: string[] } | undefined {
  const all = spec.names.filter((n) => !n.includes("/")).flatMap((n) => (byName.get(n) ?? []).filter((e) => e.isFile));
  const [winner, ...rest] = all;
  return winner === undefined ? undefined : { winner: winner.name, shadowed: rest.map((e) => e.name) };
}

/**
 * AGENTS.override.md is Codex's alone (https://developers.openai.com/codex/guides/agents-md): for any
 * other agent the kind's names lose it, and a `GUIDANCE_AGENT_ONLY` note says the file was passed over.
 */
export function gateOverride(
  spec: FileKindSpec,
  dir: string,
  byName: Map<string, Entry[]>,
  options: PickOptions,
): FileKindSpec {
  if (spec.kind !== "agents" || options.codex === true) return spec;
  if ((byName.get(AGENTS_OVERRIDE_NAME) ?? []).some((e) => e.isFile)) {
    options.diagnostics?.push(
      diagnostic(
        "GUIDANCE_AGENT_ONLY",
        "info",
        `${AGENTS_OVERRIDE_NAME} is read by Codex only; left out (a Codex model, or guidance.emulate "codex", reads it)`,
        { path: path.join(dir, AGENTS_OVERRIDE_NAME) },
      ),
    );
  }
  return { ...spec, names: spec.names.filter((n) => n !== AGENTS_OVERRIDE_NAME) };
}

// `Agents.md` or `claude.md` at cwd or above: its owner opens `AGENTS.md` / `CLAUDE.md` and would not
// read it on a case-sensitive file system, so neither does skillctx; a note says why it was passed over.
export function reportOtherCase(
  spec: FileKindSpec,
  dir: string,
  byLower: Map<string, Entry[]>,
  options: PickOptions,
): void {
  for (const name of spec.names) {
    if (name.includes("/")) continue;
    for (const entry of byLower.get(name.toLowerCase()) ?? []) {
      if (entry.name === name || !entry.isFile || spec.names.includes(entry.name)) continue;
      options.diagnostics?.push(
        diagnostic("GUIDANCE_NAME_CASE", "info", `${entry.name} is not read: its owner's file is named ${name}`, {
          path: path.join(dir, entry.name),
        }),
      );
    }
  }
}

export function groupByName(entries: readonly Entry[]): Map<string, Entry[]> {
  const map = new Map<string, Entry[]>();
  for (const entry of entries) map.set(entry.name, [...(map.get(entry.name) ?? []), entry]);
  return map;
}

export function groupByLower(entries: readonly Entry[]): Map<string, Entry[]> {
  const map = new Map<string, Entry[]>();
  for (const entry of [...entries].sort((a, b) => compareCodePoints(a.name, b.name))) {
    const key = entry.name.toLowerCase();
    map.set(key, [...(map.get(key) ?? []), entry]);
  }
  return map;
}

export async function subfolder(
  dir: string,
  byLower: Map<string, Entry[]>,
  lowerName: string,
): Promise<string | undefined> {
  const entry = (byLower.get(lowerName) ?? []).find((e) => e.isDir);
  return entry === undefined ? undefined : path.join(dir, entry.name);
}

export async function listEntries(dir: string): Promise<Entry[]> {
  const dirents = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return Promise.all(
    dirents.map(async (d) => {
      if (!d.isSymbolicLink()) return { name: d.name, isFile: d.isFile(), isDir: d.isDirectory() };
      // A dangling link counts as a file, so that loading reports it rather than passing over it.
      const target = await stat(path.join(dir, d.name)).catch(() => undefined);
      return { name: d.name, isFile: target?.isFile() ?? true, isDir: target?.isDirectory() ?? false };
    }),
  );
}
