/**
 * The adapter interface: how a loader plugs into the runner. Given a copy of a layout, a cwd, a HOME and
 * the agent or model a case emulates, an adapter returns what its loader puts in the system prompt, its
 * skill catalog and its path rules, in the loader's own terms mapped to repository-relative paths and
 * names. What a loader has no notion of is left undefined (those expectations are "not supported", not
 * failures); a rule it has no notion of at all is left out of `rules`.
 */
import type { Case } from "./case-schema.js";

/** One case as an adapter sees it. */
export interface CaseRun {
  /** The layout's folder name. */
  slug: string;
  /** Real path of the layout's copy (a git repository holding `repo/`). */
  repo: string;
  /** Absolute working folder (the case's `cwd` under `repo`). */
  cwd: string;
  /** Absolute HOME for the case (the user's folders, when the case reads them). */
  home: string;
  /** The case itself: its rule, model, options and expectations. */
  case: Case;
}

/** One catalog entry. */
export interface CatalogEntry {
  name: string;
  description?: string | undefined;
}

/**
 * What a loader produced for one case. Every field is optional: undefined means "this loader has no such
 * output", and the expectations that need it are not checked.
 */
export interface Observation {
  /** The system prompt text the loader builds (guidance and catalog as the model sees them). */
  system?: string | undefined;
  /** Repository-relative paths of the files the loader puts in the prompt always (guidance). */
  guidance?: readonly string[] | undefined;
  /**
   * When true, a file whose first distinctive line is in `system` counts as guidance too (for loaders that
   * only show the prompt, or whose file list does not name symlink aliases).
   */
  guidanceByText?: boolean | undefined;
  /** Repository-relative paths of path-scoped rules. */
  pathRules?: readonly string[] | undefined;
  /** The skill catalog. */
  skills?: readonly CatalogEntry[] | undefined;
  /**
   * Repository-relative paths of the files whose text the played step (the case's `play`) attached; a
   * loader that plays no step leaves this undefined.
   */
  activated?: readonly string[] | undefined;
  /** skillctx diagnostic codes (docs/errors.md); other loaders leave this undefined. */
  diagnostics?: readonly string[] | undefined;
}

/** An adapter's answer for one case: an observation, or a reason the loader cannot run it. */
export type AdapterResult = Observation | { unsupported: string };

/** A loader, as the runner drives it. */
export interface ConformanceAdapter {
  /** Shown in the results table: the package and its version (`deepagents 1.14.1`). */
  readonly name: string;
  /**
   * The rule ids (docs/conventions.md) this loader has a notion of; a case of any other rule is "not
   * supported". Omit for every rule.
   */
  readonly rules?: ReadonlySet<string> | undefined;
  /**
   * What of a case's `play` the loader can act out: a user message, a tool call that reads a file. A case
   * that needs more is "not supported" for it. Omit when it plays nothing.
   */
  readonly plays?: { message?: boolean; toolCall?: boolean } | undefined;
  /** Called once with every case before the first `observe` (a CLI can run them all in one batch). */
  prepare?(runs: readonly CaseRun[]): Promise<void>;
  /** Loads the case's copy the way the loader does and reports what it produced. */
  observe(run: CaseRun): Promise<AdapterResult>;
  /** Releases what `prepare` or `observe` held. */
  close?(): Promise<void>;
}
