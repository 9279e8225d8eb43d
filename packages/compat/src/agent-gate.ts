import { keepForModel, modelFamily } from "@skillctx/core";

/**
 * An agent whose reading of the repository a host emulates, where agents disagree: which
 * single-agent files (CLAUDE.md and Claude Code's other memory files, GEMINI.md, AGENTS.override.md)
 * are read. See docs/conventions.md ("Where agents disagree") and docs/decisions.md.
 */
export type EmulatedAgent =
  | "claude-code"
  | "codex"
  | "gemini-cli"
  | "cursor"
  | "copilot"
  | "windsurf"
  | "cline"
  | "openhands";

/** Every {@link EmulatedAgent}, for option checks and the CLI. */
export const EMULATED_AGENTS: readonly EmulatedAgent[] = [
  "claude-code",
  "codex",
  "gemini-cli",
  "cursor",
  "copilot",
  "windsurf",
  "cline",
  "openhands",
];

/** Who the guidance is read for: the model id, and the agent emulated (which wins over the model). */
export interface Reader {
  model?: string | undefined;
  emulate?: EmulatedAgent | undefined;
}

// The one agent that reads each family-gated kind (by skill-name base).
const OWNER: Readonly<Record<string, EmulatedAgent>> = {
  claude: "claude-code",
  "claude-dir": "claude-code",
  "claude-local": "claude-code",
  "claude-rules": "claude-code",
  gemini: "gemini-cli",
};

/**
 * Whether guidance of `kind` (`claude`, `gemini`, `agents`, ...) is read for `reader`. With `emulate`,
 * a single-agent kind is read only for its owner; without it, the model family decides
 * (core `keepForModel`: an unknown or absent model keeps everything).
 */
export function readsKind(kind: string, reader: Reader): boolean {
  const owner = OWNER[kind];
  if (owner === undefined) return true;
  if (reader.emulate !== undefined) return reader.emulate === owner;
  return keepForModel(kind, reader.model);
}

/**
 * Whether AGENTS.override.md replaces AGENTS.md: only for Codex, that is `emulate: "codex"`, or no
 * emulation and an OpenAI-family model (Codex's models). An unknown or absent model reads AGENTS.md,
 * the file every agent shares: an override committed for Codex must not replace it for everyone.
 */
export function readsAgentsOverride(reader: Reader): boolean {
  if (reader.emulate !== undefined) return reader.emulate === "codex";
  return modelFamily(reader.model) === "openai";
}
