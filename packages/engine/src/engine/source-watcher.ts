/**
 * The watcher of hot reload: chokidar (loaded on first use) on the local skill sources, with the
 * watch cap and the ignore rules, and a quiet spell (`debounceMs`) after the last change. It knows
 * files and time only; what a quiet spell means for the skills is hot-reload.ts's business.
 */
import * as path from "node:path";
import type { FSWatcher } from "chokidar";
import { errorText, toPosix } from "@skillctx/core/internal";
import { diagnostic } from "@skillctx/core";
import type { DiagnosticSink } from "@skillctx/core";
import { MAX_WATCHED_PATHS, WATCH_MAX_DEPTH } from "../limits.js";
import { isTarget } from "./watch-targets.js";

/** Longest the first watch waits for chokidar's initial scan before `create` goes on. */
const READY_WAIT_MS = 10_000;

/** What the watcher tells its owner. */
export interface SourceWatcherHost {
  debounceMs: number;
  /** A path changed (before the quiet spell ends). */
  changed(file: string): void;
  /** The quiet spell after the last change ended. */
  quiet(): void;
  report: DiagnosticSink;
}

/** Watches folders (each with what below it counts) and reports changes and quiet spells. */
export class SourceWatcher {
  private watcher: FSWatcher | undefined;
  private starting: Promise<void> | undefined;
  private closed = false;
  /** Watched folders (absolute) and what below them counts (`undefined`: everything). */
  private roots = new Map<string, readonly string[] | undefined>();
  /** Paths admitted under the watch cap. */
  private admitted = new Set<string>();
  private warnedLimit = false;
  private warnedError = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly host: SourceWatcherHost) {}

  /** Watches `roots` from now on (starting chokidar the first time). */
  async watch(roots: Map<string, readonly string[] | undefined>): Promise<void> {
    const added = [...roots.keys()].filter((root) => !this.roots.has(root));
    const removed = [...this.roots.keys()].filter((root) => !roots.has(root));
    this.roots = roots;
    if (this.watcher !== undefined) {
      if (removed.length > 0) this.watcher.unwatch(removed);
      if (added.length > 0) this.watcher.add(added);
      return;
    }
    this.starting ??= this.start([...roots.keys()]);
    await this.starting;
  }

  /** Stops watching; idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.starting?.catch(() => {});
    const watcher = this.watcher;
    this.watcher = undefined;
    await watcher?.close();
  }

  private async start(paths: string[]): Promise<void> {
    let chokidar: typeof import("chokidar");
    try {
      chokidar = await import("chokidar");
    } catch (error) {
      this.host.report(
        diagnostic("WATCH_FAILED", "error", `watch is off: chokidar cannot be loaded (${errorText(error)})`),
      );
      return;
    }
    if (this.closed) return;
    const watcher = chokidar.watch(paths, {
      ignoreInitial: true,
      followSymlinks: false,
      depth: WATCH_MAX_DEPTH,
      // The process may exit while a context is open: the watcher never holds it.
      persistent: false,
      ignored: (file: string) => this.ignored(file),
    });
    this.watcher = watcher;
    watcher.on("all", (_event, file) => this.changed(String(file)));
    watcher.on("error", (error) => {
      if (this.warnedError) return;
      this.warnedError = true;
      this.host.report(
        diagnostic(
          "WATCH_FAILED",
          "warning",
          `watching skill sources failed: ${errorText(error)}; changes may be missed until refresh()`,
        ),
      );
    });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, READY_WAIT_MS);
      timer.unref();
      watcher.once("ready", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private changed(file: string): void {
    if (this.closed) return;
    this.host.changed(file);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) this.host.quiet();
    }, this.host.debounceMs);
    this.timer.unref();
  }

  // Everything outside the targets is ignored (chokidar does not descend into it); `.git` and
  // `node_modules` always; past MAX_WATCHED_PATHS new paths are ignored with one warning.
  private ignored(file: string): boolean {
    const name = path.basename(file);
    if (name === ".git" || name === "node_modules") return true;
    let relevant = false;
    for (const [root, targets] of this.roots) {
      if (file === root || root.startsWith(file + path.sep)) return false;
      if (!file.startsWith(root + path.sep)) continue;
      if (targets === undefined || isTarget(toPosix(file.slice(root.length + 1)).toLowerCase(), targets)) {
        relevant = true;
        break;
      }
    }
    if (!relevant) return true;
    if (this.admitted.has(file)) return false;
    if (this.admitted.size >= MAX_WATCHED_PATHS) {
      if (!this.warnedLimit) {
        this.warnedLimit = true;
        this.host.report(
          diagnostic(
            "WATCH_LIMIT",
            "warning",
            `more than ${MAX_WATCHED_PATHS} files and folders below the watched skill sources; the rest is not watched (call refresh() to pick up their changes)`,
          ),
        );
      }
      return true;
    }
    this.admitted.add(file);
    return false;
  }
}
