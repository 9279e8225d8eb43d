import { buildCatalog, diagnostic, promptLine } from "@skillctx/core";
import type { CatalogResult, Diagnostic, Skill } from "@skillctx/core";
import type { SkillSet } from "../context-types.js";
import { skillLocation } from "../skill-location.js";
import { capTextUtf8Bytes } from "@skillctx/core/internal";
import type { GuidanceEntry, Templates } from "./templates.js";

/** The stable part of a step: rebuilt only when sources or options change. */
export interface SystemParts {
  system: string;
  catalog: CatalogResult | undefined;
  /** What the caps did (a `GUIDANCE_BLOCK_CUT` warning when the guidance block was cut). */
  diagnostics: Diagnostic[];
  /** Each guidance file's text as it stands in `system` (after the cap), for token usage. */
  guidance?: readonly { name: string; text: string }[];
}

// Bytes counted for each guidance entry beside its text: the template's tags and its path.
const ENTRY_OVERHEAD = 64;
// Below this much room, the file that crosses the cap is left out rather than cut to a stub.
const MIN_CUT_ROOM = 512;

/**
 * `system` is the host's prompt, then the repository-guidance block (each file labelled), then the
 * catalog of on-demand and triggered skills. `guidanceText` gives each guidance skill's rendered text.
 * The guidance texts together (plus their labels) are capped at `maxGuidanceBytes`: the file that
 * crosses the cap is cut, later files are left out, and a note in the block says so.
 */
export function buildSystem(options: {
  systemPrompt: string | undefined;
  skills: Pick<SkillSet, "guidance" | "catalog">;
  guidanceText: ReadonlyMap<string, string>;
  cwd: string;
  templates: Templates;
  catalog: { format?: "xml" | "markdown"; budgetTokens?: number } | undefined;
  /** UTF-8 bytes of the guidance block, all files together. */
  maxGuidanceBytes: number;
  /** How the toolset loads a skill (for the intro line) and its search tool (for a partial catalog). */
  toolset?: { loadInstruction: string; searchTool: string };
}): SystemParts {
  const sections: string[] = [];
  const diagnostics: Diagnostic[] = [];
  let guidance: GuidanceEntry[] = [];
  if (options.systemPrompt !== undefined && options.systemPrompt.trim() !== "")
    sections.push(options.systemPrompt.trimEnd());
  if (options.skills.guidance.length > 0) {
    const entries = options.skills.guidance.map((skill) => ({
      name: skill.name,
      location: guidancePath(skill.source.path, options.cwd, skill),
      text: options.guidanceText.get(skill.name) ?? skill.content,
    }));
    guidance = capGuidance(entries, options.maxGuidanceBytes, diagnostics);
    sections.push(options.templates.guidance(guidance));
  }
  let catalog: CatalogResult | undefined;
  if (options.skills.catalog.length > 0) {
    const toolset = options.toolset ?? { loadInstruction: "the load_skill tool", searchTool: "search_skills" };
    catalog = buildCatalog([...options.skills.catalog], { ...options.catalog, searchTool: toolset.searchTool });
    const intro = options.templates.catalogIntro;
    const introText = typeof intro === "function" ? intro({ loadInstruction: toolset.loadInstruction }) : intro;
    if (catalog.text !== "") sections.push(`${introText}\n\n${catalog.text}`);
  }
  return { system: sections.join("\n\n"), catalog, diagnostics, guidance };
}

// Keeps the guidance entries within `maxBytes` in all: whole files while they fit, then the file
// that crosses the cap cut with a note (or, with too little room left, a note naming the files left out).
function capGuidance(entries: GuidanceEntry[], maxBytes: number, diagnostics: Diagnostic[]): GuidanceEntry[] {
  let left = maxBytes;
  const kept: GuidanceEntry[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const overhead = ENTRY_OVERHEAD + Buffer.byteLength(entry.name) + Buffer.byteLength(entry.location ?? "");
    const size = Buffer.byteLength(entry.text);
    const room = left - overhead;
    if (size <= room) {
      kept.push(entry);
      left = room - size;
      continue;
    }
    const rest = entries.length - i - 1;
    if (room >= MIN_CUT_ROOM) {
      const capped = capTextUtf8Bytes(entry.text, room, (keptBytes) => cutNote(entry, keptBytes, size, maxBytes, rest));
      kept.push({ ...entry, text: capped.text });
      const later = rest > 0 ? ` and ${rest} later ${rest === 1 ? "file was" : "files were"} left out` : "";
      diagnostics.push(cutDiagnostic(`${entry.location ?? entry.name} was cut (${size} bytes)${later}`, maxBytes));
      return kept;
    }
    const omitted = entries.slice(i);
    const note = omittedNote(omitted, maxBytes);
    const last = kept.pop();
    kept.push(
      last === undefined
        ? { name: entry.name, location: undefined, text: note }
        : { ...last, text: `${last.text.trimEnd()}\n\n${note}` },
    );
    diagnostics.push(
      cutDiagnostic(
        `${omitted.length} ${omitted.length === 1 ? "file was" : "files were"} left out: ${names(omitted)}`,
        maxBytes,
      ),
    );
    return kept;
  }
  return kept;
}

function cutNote(entry: GuidanceEntry, keptBytes: number, size: number, maxBytes: number, rest: number): string {
  const later = rest > 0 ? ` ${rest} later guidance ${rest === 1 ? "file is" : "files are"} left out.` : "";
  return `[skillctx: the repository guidance is capped at ${maxBytes} bytes; ${promptLine(entry.location ?? entry.name)} is cut after ${keptBytes} of its ${size} bytes.${later}]`;
}

function omittedNote(omitted: readonly GuidanceEntry[], maxBytes: number): string {
  return `[skillctx: the repository guidance is capped at ${maxBytes} bytes; left out: ${names(omitted)}.]`;
}

function names(entries: readonly GuidanceEntry[]): string {
  const shown = entries.slice(0, 10).map((e) => e.location ?? e.name);
  return entries.length > 10 ? `${shown.join(", ")} and ${entries.length - 10} more` : shown.join(", ");
}

function cutDiagnostic(what: string, maxBytes: number): Diagnostic {
  return diagnostic(
    "GUIDANCE_BLOCK_CUT",
    "warning",
    `the repository guidance is over limits.maxGuidanceBlockBytes (${maxBytes}): ${what}`,
  );
}

function guidancePath(file: string | undefined, cwd: string, skill: Skill): string | undefined {
  if (file === undefined) return undefined;
  const folder = skillLocation(skill, cwd);
  const base = file.split(/[\\/]/).pop() ?? file;
  return folder === undefined || folder === "." ? base : `${folder}/${base}`;
}
