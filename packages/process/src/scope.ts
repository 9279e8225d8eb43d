import type { LiveGroup } from "./registry.js";

/** Rejection of a `runProcess` or `spawnGroup` whose scope was closed (or of any run on {@link closeAll}). */
export class ProcessClosedError extends Error {
  readonly code = "PROCESS_CLOSED";
  override readonly name = "ProcessClosedError";

  constructor(message = "the process scope was closed; its processes were stopped and nothing more is started") {
    super(message);
  }

  /** True for a {@link ProcessClosedError}, also one from another copy of this package. */
  static isInstance(error: unknown): error is ProcessClosedError {
    return error instanceof Error && (error as { code?: unknown }).code === "PROCESS_CLOSED";
  }
}

/**
 * The processes of one owner (an `AgentContext`, an MCP bridge, a CLI run): pass it as `scope` to
 * `runProcess` and `spawnGroup`, and `close()` stops every one of them that still runs; afterwards they
 * refuse to start anything with this scope.
 */
export interface ProcessScope {
  /** True once `close()` was called. */
  readonly closed: boolean;
  /** Process groups of this scope still running. */
  readonly running: number;
  /**
   * Stops every running group of the scope (commands are killed, long-lived children closed in stages)
   * and resolves once they are gone. Idempotent.
   */
  close(): Promise<void>;
  /** Same as `close()`. */
  [Symbol.asyncDispose](): Promise<void>;
}

const members = new WeakMap<ProcessScope, Set<LiveGroup>>();

/**
 * A new, open {@link ProcessScope}.
 *
 * @example
 * const processes = createProcessScope();
 * await runProcess("make lint", { cwd, scope: processes });
 * await processes.close(); // nothing of it still runs
 */
export function createProcessScope(): ProcessScope {
  const groups = new Set<LiveGroup>();
  let closing: Promise<void> | undefined;
  const scope: ProcessScope = {
    get closed() {
      return closing !== undefined;
    },
    get running() {
      return groups.size;
    },
    close() {
      closing ??= Promise.all([...groups].map((group) => group.close())).then(() => undefined);
      return closing;
    },
    [Symbol.asyncDispose]() {
      return scope.close();
    },
  };
  members.set(scope, groups);
  return scope;
}

/**
 * Adds a started group to `scope`; returns the function that removes it. When the scope is already
 * closed (it closed while the process was starting), the group is closed at once.
 */
export function joinScope(scope: ProcessScope | undefined, group: LiveGroup): () => void {
  const groups = scope === undefined ? undefined : members.get(scope);
  if (scope === undefined || groups === undefined) return () => {};
  if (scope.closed) {
    void group.close();
    return () => {};
  }
  groups.add(group);
  return () => void groups.delete(group);
}
