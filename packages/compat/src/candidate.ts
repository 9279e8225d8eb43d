/**
 * What the guidance scans find before reading: a candidate source, where its folder sits relative to cwd,
 * and how rule folders are walked. Its own file so that the scans (candidates.ts, rule-files.ts, roo-rules.ts)
 * share the types without importing each other.
 */
import type { Diagnostic } from "@skillctx/core";
import type { FileKindSpec, RuleKind } from "./formats.js";

/**
 * How a folder's guidance relates to cwd: `level` folders are cwd and its parents up to the root
 * (`up` is the path from the folder down to cwd); `nested` folders lie below cwd (`down` is their
 * path from cwd).
 */
export type Placement = { type: "level"; up: string } | { type: "nested"; down: string };

/** A guidance source found on disk, not yet read. */
export type Candidate =
  | {
      type: "file";
      spec: FileKindSpec;
      file: string;
      /** Root-relative folder the guidance belongs to (`""` for the root). */
      folder: string;
      place: Placement;
      /** Same-kind files in the folder that lose to `file` (`AGENT.md` beside `AGENTS.md`). */
      shadowed: string[];
      /** A file of the user's home folder (`~/.claude/CLAUDE.md`, `~/.codex/AGENTS.md`): user scope. */
      user?: true;
    }
  | {
      type: "clinerules-dir";
      dir: string;
      files: string[];
      folder: string;
      place: Placement;
      /** `clinerules` for `.clinerules/`, `cline-rules` for `.cline/rules/` (and `~/.cline/rules/`). */
      kind: "clinerules" | "cline-rules" | "roo-rules";
      user?: true;
    }
  | { type: "rule"; kind: RuleKind; file: string; rule: string; folder: string; place: Placement; user?: true };

/** How rule folders are walked. */
export interface ScanOptions {
  /** Real path of the project root: rule folders are not followed out of it. Unset: followed anywhere. */
  containRoot?: string | undefined;
  /** Where the walks report what they skipped. */
  diagnostics?: Diagnostic[] | undefined;
  /**
   * Codex is the agent (a Codex-family model, or `emulate: "codex"`): AGENTS.override.md replaces
   * AGENTS.md in its folder. Otherwise the override is left out with a `GUIDANCE_AGENT_ONLY` note.
   */
  codex?: boolean | undefined;
}
