/**
 * Where the skill server's skills come from on each (re)build: the host's array or function, or one
 * `AgentContext` in `cwd` kept open for the server's life. With `watch`, that context's own hot reload
 * (the engine's watcher, `AgentContext.create({ watch })`) watches the skill folders; the loader asks it
 * every `pollMs` whether a reload is due (an empty `buildContext` step reloads only then) and calls
 * `onChange` after a reload that changed a skill (the engine's `skills.changed` event).
 */
import type { Diagnostic, Skill } from "@skillctx/core";
import { AgentContext } from "@skillctx/engine";
import { DEFAULT_WATCH_POLL_MS } from "./limits.js";
import type { SkillServerOptions } from "./server.js";

/** What a load returns. */
export interface Loaded {
  skills: readonly Skill[];
  diagnostics: Diagnostic[];
}

/** Loads the skills; `reload: false` reuses what the watcher last loaded (cwd with watch). */
export interface SkillLoader {
  load(signal: AbortSignal | undefined, reload: boolean): Promise<Loaded>;
  /** Starts asking the watcher; `onChange` after each reload that changed a skill. No-op without watch. */
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
  private timer: NodeJS.Timeout | undefined;
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
    if (watch === undefined || watch === false || this.timer !== undefined) return;
    const pollMs = typeof watch === "object" && watch.pollMs !== undefined ? watch.pollMs : DEFAULT_WATCH_POLL_MS;
    const tick = async () => {
      const ctx = this.ctx;
      if (ctx === undefined || this.closed) return;
      // An empty step: the engine reloads first when its watcher marked the skills dirty.
      await ctx.buildContext([]);
      if (this.changed) {
        this.changed = false;
        onChange();
      }
    };
    const loop = () => {
      this.timer = setTimeout(() => {
        tick()
          .catch((error: unknown) => {
            if (!this.closed) onError(error);
          })
          .finally(() => {
            if (!this.closed) loop();
          });
      }, pollMs);
      this.timer.unref();
    };
    loop();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.ctx?.close();
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
    this.ctx = ctx;
    return ctx;
  }
}
