/**
 * Where the skill server's skills come from on each (re)build: the host's array or function, or one
 * `AgentContext` in `cwd` kept open for the server's life. With `watch`, that context's own hot reload
 * (the engine's watcher, `AgentContext.create({ watch })`) watches the skill folders; when it says the
 * skills are stale (the engine's `skills.stale` event, at the end of the quiet spell) the loader
 * reloads them (`refresh()`) and calls `onChange` after a reload that changed a skill (the engine's
 * `skills.changed` event). Nothing polls.
 */
import type { Diagnostic, Skill } from "@skillctx/core";
import { AgentContext } from "@skillctx/engine";
import type { SkillServerOptions } from "./server.js";

/** What a load returns. */
export interface Loaded {
  skills: readonly Skill[];
  diagnostics: Diagnostic[];
}

/** Loads the skills; `reload: false` reuses what the watcher last loaded (cwd with watch). */
export interface SkillLoader {
  load(signal: AbortSignal | undefined, reload: boolean): Promise<Loaded>;
  /** Starts following the watcher; `onChange` after each reload that changed a skill. No-op without watch. */
  watch(onChange: () => void, onError: (error: unknown) => void): void;
  close(): Promise<void>;
}

/** The loader for `options`. */
export function skillLoader(options: SkillServerOptions): SkillLoader {
  const given = options.skills;
  if (typeof given === "function")
    return { load: async () => ({ skills: await given(), diagnostics: [] }), watch() {}, close: async () => {} };
  if (given !== undefined)
    return { load: async () => ({ skills: given, diagnostics: [] }), watch() {}, close: async () => {} };
  return new ContextLoader(options);
}

class ContextLoader implements SkillLoader {
  private ctx: AgentContext | undefined;
  /** What `watch` was given; until then a stale event is only remembered. */
  private following: { onChange: () => void; onError: (error: unknown) => void } | undefined;
  /** The skills went stale and no reload has started for it yet. */
  private stale = false;
  private reloading = false;
  private changed = false;
  private closed = false;

  constructor(private readonly options: SkillServerOptions) {}

  async load(signal: AbortSignal | undefined, reload: boolean): Promise<Loaded> {
    const opened = this.ctx !== undefined;
    const ctx = await this.context(signal);
    const at = signal === undefined ? {} : { signal };
    if (opened && reload) await ctx.refresh(at);
    const step = await ctx.buildContext([], at);
    return { skills: [...ctx.skills], diagnostics: step.diagnostics };
  }

  watch(onChange: () => void, onError: (error: unknown) => void): void {
    const watch = this.options.watch;
    if (watch === undefined || watch === false || this.following !== undefined) return;
    this.following = { onChange, onError };
    // A change that went stale while the first snapshot was built.
    if (this.stale) void this.reload();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.ctx?.close();
  }

  // Reloads once per stale spell; a spell that ends during a reload is followed by one more.
  private async reload(): Promise<void> {
    const following = this.following;
    const ctx = this.ctx;
    if (following === undefined || ctx === undefined || this.reloading) return;
    this.reloading = true;
    try {
      while (this.stale && !this.closed) {
        this.stale = false;
        await ctx.refresh();
        if (this.changed && !this.closed) {
          this.changed = false;
          following.onChange();
        }
      }
    } catch (error) {
      if (!this.closed) following.onError(error);
    } finally {
      this.reloading = false;
    }
  }

  private async context(signal: AbortSignal | undefined): Promise<AgentContext> {
    if (this.ctx !== undefined) return this.ctx;
    const watch = this.options.watch;
    const debounceMs = typeof watch === "object" ? watch.debounceMs : undefined;
    // Loading renders nothing for anyone: no trust, so no !`cmd` of guidance runs while the skills are read.
    const context = this.options.context;
    const ctx = await AgentContext.create({
      ...context,
      cwd: this.options.cwd!,
      trust: { project: false, user: false },
      sources: {
        ...context?.sources,
        ...(watch !== undefined && watch !== false && { watch: debounceMs === undefined ? true : { debounceMs } }),
      },
      // The catalog is not shown to anyone here: rebuild it rather than keep notes of changes.
      catalog: { ...context?.catalog, updates: "system" },
      ...(signal !== undefined && { signal }),
    });
    ctx.on("skills.changed", () => {
      this.changed = true;
    });
    ctx.on("skills.stale", () => {
      this.stale = true;
      void this.reload();
    });
    this.ctx = ctx;
    return ctx;
  }
}
