/**
 * Hot reload: watches the local skill sources (source-watcher.ts), marks the context stale after a
 * quiet spell and tells it with one `skills.stale` event, and lets the next step reload before it
 * scans. Remote sources are due again after their `ttlMs` (the same event, from a timer). Each reload
 * is compared with the one before (`skills.changed`); under `catalogUpdates: "append"` the `system`
 * of the first load is kept byte for byte and a note of what changed is attached, frozen, to the
 * newest message of the next step.
 */
import { DEFAULT_WATCH_DEBOUNCE_MS, MAX_CATALOG_NOTE_BYTES } from "../limits.js";
export { DEFAULT_WATCH_DEBOUNCE_MS, MAX_WATCHED_PATHS, WATCH_MAX_DEPTH } from "../limits.js";
import { createHash } from "@skillctx/core/internal";
import { statSync } from "node:fs";
import * as path from "node:path";
import { compareCodePoints, diagnostic } from "@skillctx/core";
import type { DiagnosticSink, Skill, SkillCache } from "@skillctx/core";
import type { SkillSet } from "../context-types.js";
import type { EventSink } from "../events/types.js";
import type { ResolvedRemote } from "@skillctx/sources";
import type { AgentContextOptions, CatalogOptions, SourceOptions } from "./options.js";
import { buildCatalogNote } from "./catalog-note.js";
import type { CatalogNote } from "./catalog-note.js";
import { SourceWatcher } from "./source-watcher.js";
import type { Attachment, SentCatalog } from "./state.js";
import type { SystemParts } from "./system-prompt.js";
import { watchRoots } from "./watch-targets.js";

/** Most paths one `skills.stale` event names. */
const MAX_STALE_PATHS = 100;
/** The longest delay `setTimeout` takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Added, changed and removed skills, by name in code-point order. */
export interface SkillChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

/** What the hot reload needs from its context. */
export interface HotReloadHost {
  events: EventSink;
  cache: SkillCache | undefined;
  /** Forgets a frozen rendering (`load:<name>`, `guidance:<name>`) whose source changed. */
  thaw(key: string): void;
  report: DiagnosticSink;
  /** The catalog's format, which the update note follows. */
  catalogFormat: "xml" | "markdown" | undefined;
  /** What the model was told of the skills (saved in the state; a resumed context starts from it). */
  told(): SentCatalog | undefined;
  /** Records what the model now knows: the `system` first sent and the told skills' fingerprints. */
  tell(told: SentCatalog): void;
}

type Change = "added" | "changed" | "removed";

/**
 * The watcher, the change list between loads and the pending note of one context. Without `watch`,
 * no watcher runs and nothing is imported; the comparison of loads runs only when something asks for
 * it (`catalog.updates` set, or a `skills.changed` listener).
 */
export class HotReload {
  private readonly watchSetting: { debounceMs: number } | undefined;
  private readonly mode: "append" | "system";
  /** Loads are compared even without a `skills.changed` listener (watch or catalogUpdates set). */
  private readonly tracking: boolean;
  /** The watcher (only with `watch`). */
  private readonly watcher: SourceWatcher | undefined;
  private closed = false;
  /** Paths that changed since the reload in progress (or the last one) started. */
  private changedPaths = new Set<string>();
  /** The paths of the reload in progress. */
  private batch = new Set<string>();
  private dirty = false;
  /** Counts quiet spells after changes; a reload clears `dirty` only when none came while it ran. */
  private generation = 0;
  private taken = 0;
  /** When the first remote source is due again (ms since the epoch). */
  private remoteDue: number | undefined;
  /** Emits `skills.stale` when `remoteDue` comes. */
  private remoteTimer: NodeJS.Timeout | undefined;
  /** Fingerprints of the last load, by skill name; undefined until something compares loads. */
  private fingerprints: Map<string, string> | undefined;
  /** `system` as first built; kept under `append`. */
  private keptParts: SystemParts | undefined;
  /** Changes not yet told to the model (append). */
  private pending = new Map<string, Change>();

  constructor(
    options: { watch?: SourceOptions["watch"] | undefined; catalogUpdates?: CatalogOptions["updates"] | undefined },
    private readonly host: HotReloadHost,
  ) {
    const watch = options.watch;
    if (watch === true || (typeof watch === "object" && watch !== null)) {
      const ms = typeof watch === "object" ? watch.debounceMs : undefined;
      this.watchSetting = {
        debounceMs: typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_WATCH_DEBOUNCE_MS,
      };
    }
    this.mode = options.catalogUpdates ?? (this.watchSetting !== undefined ? "append" : "system");
    this.tracking = this.watchSetting !== undefined || options.catalogUpdates !== undefined;
    if (this.watchSetting !== undefined)
      this.watcher = new SourceWatcher({
        debounceMs: this.watchSetting.debounceMs,
        changed: (file) => {
          this.changedPaths.add(file);
          // The next scan parses the file again even when its size and mtime look the same.
          this.host.cache?.invalidate(file);
        },
        quiet: () => this.stale(),
        report: host.report,
      });
  }

  /** Whether the next step must reload first: files changed (after the quiet spell) or a remote source's ttl ran out. */
  due(): boolean {
    if (this.watchSetting === undefined || this.closed) return false;
    return this.dirty || (this.remoteDue !== undefined && Date.now() >= this.remoteDue);
  }

  /**
   * Called at the start of every reload with the options, the resolved remote sources and the guidance
   * in use (none before the first load): takes the changed paths, sets what is watched, and notes when
   * remote sources are due.
   */
  async sources(
    options: AgentContextOptions,
    remote: readonly ResolvedRemote[],
    guidance: readonly Skill[] = [],
  ): Promise<void> {
    // A reload that fails (aborted step) keeps the context dirty and its paths for the next one.
    this.taken = this.generation;
    for (const changed of this.changedPaths) this.batch.add(changed);
    this.changedPaths = new Set();
    if (this.watchSetting === undefined || this.closed) return;
    const now = Date.now();
    const ttls = remote.flatMap((r) => (typeof r.ttlMs === "number" && r.ttlMs >= 0 ? [r.ttlMs] : []));
    this.remoteDue = ttls.length === 0 ? undefined : now + Math.min(...ttls);
    this.scheduleRemote(ttls.length === 0 ? undefined : Math.min(...ttls));
    // Guidance rendered with commands is frozen; a changed file is rendered afresh when `system` is rebuilt.
    if (this.mode === "system" && this.batch.size > 0) {
      for (const skill of guidance) if (touches(this.batch, skill)) this.host.thaw(`guidance:${skill.name}`);
    }
    await this.watcher?.watch(watchRoots(options));
  }

  /**
   * Compares a load with the one before and returns the `system` parts to use: the new ones, or
   * under `append` the first ones (byte-identical `system`). Emits `skills.changed`, thaws the frozen
   * bodies of changed skills (a loaded skill keeps its body until the model loads it again) and,
   * under `append`, keeps the changes for the note.
   */
  settle(previous: SkillSet | undefined, next: SkillSet, parts: SystemParts): SystemParts {
    if (this.keptParts === undefined && this.mode === "append") {
      // A context resumed from a saved state sends the `system` of the conversation's first step again
      // and compares this load with the skills the model was told of then.
      const told = this.host.told();
      if (told !== undefined) {
        this.keptParts = { ...parts, system: told.system };
        this.fingerprints = new Map(Object.entries(told.skills));
      }
    }
    this.keptParts ??= parts;
    if (this.generation === this.taken) this.dirty = false;
    const batch = this.batch;
    this.batch = new Set();
    const wanted = this.tracking || this.host.events.wants("skills.changed");
    if (!wanted) {
      this.fingerprints = undefined;
      return parts;
    }
    const fingerprints = new Map(next.skills.map((skill) => [skill.name, fingerprintOf(skill)]));
    const before = this.fingerprints;
    this.fingerprints = fingerprints;
    if (before === undefined) {
      if (this.mode === "append")
        this.host.tell({ system: this.keptParts.system, skills: Object.fromEntries(fingerprints) });
      return this.mode === "append" ? this.keptParts : parts;
    }
    const changes: SkillChanges = { added: [], changed: [], removed: [] };
    for (const [name, print] of fingerprints) {
      // Nested skills revealed by a step since the last load were in use already: not new.
      const old = before.get(name) ?? (previous?.byName.has(name) ? print : undefined);
      if (old === undefined) changes.added.push(name);
      else if (old !== print || touches(batch, next.byName.get(name)!)) changes.changed.push(name);
    }
    for (const name of new Set([...before.keys(), ...(previous?.byName.keys() ?? [])]))
      if (!fingerprints.has(name)) changes.removed.push(name);
    changes.removed.sort(compareCodePoints);
    for (const name of [...changes.changed, ...changes.removed]) this.host.thaw(`load:${name}`);
    if (changes.added.length + changes.changed.length + changes.removed.length > 0) {
      if (this.mode === "append")
        for (const kind of ["added", "changed", "removed"] as const)
          for (const name of changes[kind]) this.merge(name, kind);
      if (this.host.events.wants("skills.changed")) this.host.events.emit({ type: "skills.changed", ...changes });
    }
    return this.mode === "append" ? this.keptParts : parts;
  }

  /**
   * The note of changes not told yet, as an attachment to the newest message (`newest`, its
   * fingerprint); none when nothing is pending or there is no message.
   */
  note(newest: string | undefined, skills: SkillSet): Attachment[] {
    if (this.pending.size === 0 || newest === undefined) return [];
    const fingerprint = newest;
    const changes = { added: [] as Skill[], changed: [] as Skill[], removed: [] as string[], other: [] as string[] };
    const listed = new Set(skills.catalog.map((skill) => skill.name));
    for (const [name, kind] of [...this.pending].sort(([a], [b]) => compareCodePoints(a, b))) {
      const skill = skills.byName.get(name);
      if (kind === "removed" || skill === undefined) changes.removed.push(name);
      else if (!listed.has(name)) changes.other.push(name);
      else changes[kind].push(skill);
    }
    this.pending.clear();
    // The model is told now: a context resumed from here compares with this load.
    if (this.keptParts !== undefined && this.fingerprints !== undefined)
      this.host.tell({ system: this.keptParts.system, skills: Object.fromEntries(this.fingerprints) });
    const note = updateNote(changes, this.host.catalogFormat);
    if (note.omitted > 0) {
      this.host.report(
        diagnostic(
          "CATALOG_NOTE_CUT",
          "warning",
          `the <skills_update> note lists ${note.listed} of ${note.listed + note.omitted} changed skills: it is capped at ${MAX_CATALOG_NOTE_BYTES} bytes`,
        ),
      );
    }
    return [{ skill: "", trigger: "update", match: "skills changed", fingerprint, text: note.text }];
  }

  /** Stops watching; idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.remoteTimer !== undefined) clearTimeout(this.remoteTimer);
    await this.watcher?.close();
  }

  // --- changes ----------------------------------------------------------------------------------

  // Folds a change into what the note will say: added then removed is nothing, removed then added is changed.
  private merge(name: string, kind: Change): void {
    const before = this.pending.get(name);
    if (before === "added" && kind === "removed") this.pending.delete(name);
    else if (before === "added") this.pending.set(name, "added");
    else if (before === "removed" && kind === "added") this.pending.set(name, "changed");
    else this.pending.set(name, kind);
  }

  // --- staleness ---------------------------------------------------------------------------------

  // A quiet spell ended: the next step (or `refresh()`) reloads, and listeners hear of it now.
  private stale(): void {
    if (this.closed) return;
    this.generation++;
    this.dirty = true;
    if (!this.host.events.wants("skills.stale")) return;
    const paths = [...this.changedPaths].sort(compareCodePoints).slice(0, MAX_STALE_PATHS);
    this.host.events.emit({ type: "skills.stale", reason: "files", paths });
  }

  // Remote sources are due again after their ttl: `due()` compares the time; listeners hear of it when it comes.
  private scheduleRemote(ttlMs: number | undefined): void {
    if (this.remoteTimer !== undefined) clearTimeout(this.remoteTimer);
    this.remoteTimer = undefined;
    // Past setTimeout's range (about 24.8 days) the event is left out; `due()` still compares the time.
    if (ttlMs === undefined || ttlMs > MAX_TIMER_MS) return;
    this.remoteTimer = setTimeout(() => {
      this.remoteTimer = undefined;
      if (!this.closed && this.host.events.wants("skills.stale"))
        this.host.events.emit({ type: "skills.stale", reason: "ttl", paths: [] });
    }, ttlMs);
    this.remoteTimer.unref();
  }
}

// Whether a changed path is the skill's file or lies in its own folder. Only a SKILL.md skill (or one
// given in code with a folder) owns its folder; a guidance file, rule or command shares its folder
// (the root's AGENTS.md shares the whole repository), so only its own file counts.
function touches(batch: ReadonlySet<string>, skill: Skill): boolean {
  if (batch.size === 0) return false;
  const file = skill.source.path;
  const ownsFolder = skill.source.format === "skill-md" || skill.source.format === "inline";
  const dir = ownsFolder ? skill.dir : undefined;
  for (const changed of batch) {
    if (changed === file || (dir !== undefined && (changed === dir || changed.startsWith(dir + path.sep)))) return true;
  }
  return false;
}

// What a load knows of a skill without reading its body: its metadata and its file's size and times.
function fingerprintOf(skill: Skill): string {
  const source = skill.source;
  let file = "";
  if (source.path !== undefined) {
    try {
      const stats = statSync(source.path, { throwIfNoEntry: false });
      if (stats !== undefined) file = `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    } catch {
      // unreadable: the metadata decides
    }
  } else if (source.kind === "inline") {
    file = createHash("sha256").update(skill.content).digest("hex");
  }
  return JSON.stringify([
    skill.description ?? "",
    skill.trigger,
    source.path ?? "",
    skill.dir ?? "",
    source.scope,
    source.origin ?? "",
    source.format,
    skill.disableModelInvocation ?? false,
    skill.userInvocable ?? true,
    skill.whenToUse ?? "",
    file,
  ]);
}

function updateNote(
  changes: { added: Skill[]; changed: Skill[]; removed: string[]; other: string[] },
  format: "xml" | "markdown" | undefined,
): CatalogNote {
  return buildCatalogNote({
    sections: [
      { title: "New skills:", skills: changes.added },
      { title: "Changed skills (load them again to see their new text):", skills: changes.changed },
      { names: changes.removed, sentence: (list) => `Removed, no longer available: ${list}.` },
      {
        names: changes.other,
        sentence: (list) => `Also changed (guidance, commands or user-only skills; re-read their files): ${list}.`,
      },
    ],
    frame: (body) =>
      [
        "<skills_update>",
        "The available skills changed since the list above; where they differ, this note wins.",
        "",
        body,
        "</skills_update>",
      ].join("\n"),
    format,
    maxBytes: MAX_CATALOG_NOTE_BYTES,
    seeMore:
      "A skill not listed here is still loaded by its name; its SKILL.md in the skill folders says what it does.",
  });
}
