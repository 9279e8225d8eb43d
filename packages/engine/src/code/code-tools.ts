/**
 * The one place that offers and runs `CodeTool`s: a programmatic skill's own tools (`defineSkill`) and
 * the typed tools of its scripts (`scriptToolsOf`). They are offered while their skill is active (from
 * `load_skill` until `unload_skill` or another load), or all of them under `skillCodeTools: "always"`;
 * a name another tool has is offered as `<skill>__<name>`. Running one checks its arguments, commits
 * the state it leaves through the state store (the one writer), emits `state.delta` and puts the delta
 * in the result's metadata. `execute_skill` gives a sub-agent a skill's tools through
 * {@link codeToolsForSkill} and runs them with {@link runCodeTool}.
 */
import { checkEnum } from "@skillctx/core/internal";
import type { DiagnosticSink, Skill, Trust } from "@skillctx/core";
import { diagnostic } from "@skillctx/core";
import { capTextUtf8Bytes } from "@skillctx/core/internal";
import { DEFAULT_MAX_CODE_TOOL_RESULT_BYTES, DEFAULT_MAX_SKILL_STATE_BYTES } from "../limits.js";
import type { SkillSet, SkillState, ToolDefinition, ToolResult } from "../context-types.js";
import type { EventSink } from "../events/types.js";
import type { SkillToolSettings } from "../tool-kit/tool-settings.js";
import { notLoadableReason, skillFolder } from "../tool-kit/skill-folder.js";
import { fail, quoted } from "../tool-kit/tool-result.js";
import { programmaticToolsOf, thrownText } from "./programmatic-tools.js";
import type { CodeTool } from "./skill-code.js";
import { hashedToolName } from "@skillctx/core/internal";

/** What the code tools read of their context; the skill tools' host (`tools/skill-tools.ts`) is one. */
export interface CodeToolHost {
  readonly skills: SkillSet;
  /** The active skill, frozen renderings and skill state; the engine's state owner stands behind it. */
  readonly state: SkillState;
  readonly trust: Trust | undefined;
  readonly settings: SkillToolSettings;
  /** Reports a diagnostic in the next step. */
  readonly diagnostic: DiagnosticSink;
  /** The context's event stream (`script.finished`, `state.delta`, ...). */
  readonly events: EventSink;
}

/** When the code tools of a skill are offered: while it is active, or always. */
export type SkillCodeToolsMode = "active" | "always";

/**
 * Checks the `tools.codeTools` option.
 *
 * @throws SkillctxError `INVALID_OPTIONS` for anything but `active`, `always` or undefined.
 */
export function checkSkillCodeTools(mode: unknown): SkillCodeToolsMode {
  return checkEnum<SkillCodeToolsMode>("tools.codeTools", mode, ["active", "always"], "active");
}

/**
 * Every code tool of `skill`, whether or not it is active: its programmatic tools, then its typed
 * script tools (derived once per context and skill; their diagnostics reported once), by their own
 * names. For `execute_skill`, which gives them to a sub-agent.
 */
export async function codeToolsForSkill(skill: Skill, host: CodeToolHost, signal?: AbortSignal): Promise<CodeTool[]> {
  const scripts = await scriptToolsFor(skill, host, signal);
  return [...programmatic(skill, host), ...scripts];
}

/**
 * Runs a code tool call and returns what the model reads. The tool checks its arguments; a state it
 * leaves is committed through `host.state` (the state store), announced as a `state.delta` event and
 * carried in `metadata.stateDelta`; the text is capped at `tools.skillTools.maxCodeToolResultBytes`. Never
 * throws for anything the tool or the model did; rejects only when `signal` is aborted.
 */
export async function runCodeTool(
  tool: CodeTool,
  args: unknown,
  host: CodeToolHost,
  options: { signal: AbortSignal; callId?: string | undefined },
): Promise<ToolResult> {
  const { signal } = options;
  const callId = options.callId ?? nextCallId(host);
  let outcome: Awaited<ReturnType<CodeTool["run"]>>;
  try {
    outcome = await tool.run(args, {
      signal,
      callId,
      readState: (namespace) => host.state.skillState(namespace),
      maxStateBytes: host.settings.maxSkillStateBytes ?? DEFAULT_MAX_SKILL_STATE_BYTES,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return fail(`The tool ${quoted(tool.name)} of the skill "${tool.skill.name}" failed: ${thrownText(error)}`);
  }
  const result = capResult(
    tool,
    outcome.result,
    host.settings.maxCodeToolResultBytes ?? DEFAULT_MAX_CODE_TOOL_RESULT_BYTES,
    host,
  );
  const change = outcome.state;
  if (change === undefined) return result;
  host.state.setSkillState(change.namespace, change.value);
  if (host.events.wants("state.delta"))
    host.events.emit({ type: "state.delta", namespace: change.namespace, skill: tool.skill.name, patch: change.patch });
  return { ...result, metadata: { stateDelta: { namespace: change.namespace, patch: change.patch } } };
}

/**
 * The code tools a context offers now, as the toolbox lists them: the active skill's (or, under
 * `always`, every skill's), by their own names (the toolbox names them against the other tools with
 * {@link nameCodeTools}). Script tools join once derived: {@link CodeToolOffer.prepare} derives those
 * of the skills on offer, and a step awaits it before it lists tools.
 */
export class CodeToolOffer {
  private offered: { skills: SkillSet; skill: Skill | undefined; version: number; tools: CodeTool[] } | undefined;
  private owners: { skills: SkillSet; version: number; byName: Map<string, Skill> } | undefined;

  constructor(
    private readonly host: CodeToolHost,
    readonly mode: SkillCodeToolsMode,
  ) {}

  /** The code tools on offer (the same array while nothing changed). */
  current(): CodeTool[] {
    const skills = this.host.skills;
    const skill = this.mode === "active" ? this.activeSkill() : undefined;
    const version = versionOf(this.host);
    const cached = this.offered;
    if (cached !== undefined && cached.skills === skills && cached.skill === skill && cached.version === version)
      return cached.tools;
    const scope = this.mode === "always" ? skills.skills : skill === undefined ? [] : [skill];
    const tools = scope.flatMap((s) => [...programmatic(s, this.host), ...(readyScripts(this.host).get(s) ?? [])]);
    this.offered = { skills, skill, version, tools };
    return tools;
  }

  /** Derives the script tools of the skills on offer (each once per context), so {@link current} lists them. */
  async prepare(signal: AbortSignal | undefined): Promise<void> {
    const scope = this.mode === "always" ? this.host.skills.skills : [this.activeSkill()];
    const pending: Promise<CodeTool[]>[] = [];
    for (const skill of scope)
      if (skill !== undefined && !readyScripts(this.host).has(skill) && skillFolder(skill) !== undefined)
        pending.push(scriptToolsFor(skill, this.host, signal));
    if (pending.length > 0) await Promise.all(pending);
  }

  /**
   * The skill whose code tool is called `name` (its own name or `<skill>__<name>`), offered or not, or
   * undefined: a call to it waits its turn like any state-changing call, and a call while the skill is
   * not active is told to load it.
   */
  ownerOf(name: string): Skill | undefined {
    const skills = this.host.skills;
    const version = versionOf(this.host);
    if (this.owners?.skills !== skills || this.owners.version !== version) {
      const byName = new Map<string, Skill>();
      for (const skill of skills.skills) {
        for (const tool of [...programmatic(skill, undefined), ...(readyScripts(this.host).get(skill) ?? [])]) {
          if (!byName.has(tool.localName)) byName.set(tool.localName, skill);
          byName.set(namespacedName(skill.name, tool.localName), skill);
        }
      }
      this.owners = { skills, version, byName };
    }
    return this.owners.byName.get(name);
  }

  // The active skill when it may be loaded (the toolbox reports and clears a stale one).
  private activeSkill(): Skill | undefined {
    const name = this.host.state.activeSkill;
    const skill = name === undefined ? undefined : this.host.skills.byName.get(name);
    return skill !== undefined && notLoadableReason(skill) === undefined ? skill : undefined;
  }
}

/**
 * Names code tools against the other tools: a tool keeps its own name unless another tool (`taken`) or
 * another skill's code tool on offer has it; then it is offered as `<skill>__<name>` (cut to 64 characters with
 * a hash when longer, or when the skill's name has characters model APIs refuse), with a
 * `TOOL_NAME_CLASH` note. Each renamed tool is one object across steps.
 */
export function nameCodeTools(
  tools: readonly CodeTool[],
  taken: ReadonlySet<string>,
  report: DiagnosticSink,
): CodeTool[] {
  // Skills that have each name: two skills' tools of one name are both namespaced; within one skill, the first wins.
  const owners = new Map<string, Set<Skill>>();
  for (const tool of tools) {
    const skills = owners.get(tool.localName) ?? new Set<Skill>();
    skills.add(tool.skill);
    owners.set(tool.localName, skills);
  }
  return tools.map((tool) => {
    if (!taken.has(tool.localName) && owners.get(tool.localName)!.size === 1) return tool;
    const renamed = renamedTool(tool);
    report(
      diagnostic(
        "TOOL_NAME_CLASH",
        "warning",
        `the tool ${quoted(tool.localName)} of the skill "${tool.skill.name}" is offered as ${quoted(renamed.name)}: another tool has its name`,
        { path: tool.skill.source.path },
      ),
    );
    return renamed;
  });
}

/** `<skill>__<tool>`, or, when that is longer than 64 characters or has characters outside `[A-Za-z0-9_-]`, a 64-character form ending in a hash of it. */
export function namespacedName(skill: string, tool: string): string {
  const full = `${skill}__${tool}`;
  if (/^[A-Za-z0-9_-]{1,64}$/.test(full)) return full;
  return hashedToolName(full, full);
}

/** The definition the model sees for a code tool (one object per tool, so tool lists stay identical across steps). */
export function codeToolDefinition(tool: CodeTool): ToolDefinition {
  let definition = definitions.get(tool);
  if (definition === undefined) {
    definition = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
    definitions.set(tool, definition);
  }
  return definition;
}

// ---------------------------------------------------------------------------------------------

const definitions = new WeakMap<CodeTool, ToolDefinition>();
const renamed = new WeakMap<CodeTool, CodeTool>();

function renamedTool(tool: CodeTool): CodeTool {
  let copy = renamed.get(tool);
  if (copy === undefined) {
    const name = namespacedName(tool.skill.name, tool.localName);
    copy = { ...tool, name, run: (args, context) => tool.run(args, context) };
    renamed.set(tool, copy);
  }
  return copy;
}

/** Per context (its tool host): the script tools derived, and a version that changes when more are. */
interface ScriptRegistry {
  pending: WeakMap<Skill, Promise<CodeTool[]>>;
  ready: WeakMap<Skill, CodeTool[]>;
  version: number;
  calls: number;
  /** Skills whose programmatic tools' problems were reported. */
  reported: WeakSet<Skill>;
}
const registries = new WeakMap<CodeToolHost, ScriptRegistry>();

function registry(host: CodeToolHost): ScriptRegistry {
  let found = registries.get(host);
  if (found === undefined) {
    found = { pending: new WeakMap(), ready: new WeakMap(), version: 0, calls: 0, reported: new WeakSet() };
    registries.set(host, found);
  }
  return found;
}

const readyScripts = (host: CodeToolHost) => registry(host).ready;
const versionOf = (host: CodeToolHost) => registry(host).version;

function nextCallId(host: CodeToolHost): string {
  return `code-${++registry(host).calls}`;
}

// A skill's programmatic tools; the problems of tools left out are reported once per context.
function programmatic(skill: Skill, host: CodeToolHost | undefined): CodeTool[] {
  const { tools, problems } = programmaticToolsOf(skill);
  if (host !== undefined && problems.length > 0) {
    const reg = registry(host);
    if (!reg.reported.has(skill)) {
      reg.reported.add(skill);
      for (const problem of problems)
        host.diagnostic(diagnostic("SKILL_TOOL_INVALID", "error", problem, { path: skill.source.path }));
    }
  }
  return tools;
}

// The typed script tools of a skill with a folder, derived once per context; an abort lets the next call try again.
function scriptToolsFor(skill: Skill, host: CodeToolHost, signal: AbortSignal | undefined): Promise<CodeTool[]> {
  if (skillFolder(skill) === undefined) return Promise.resolve([]);
  const reg = registry(host);
  let pending = reg.pending.get(skill);
  if (pending === undefined) {
    // The Python reader and runner load on the first skill with a folder that comes on offer.
    pending = import("./script-tools.js")
      .then(({ scriptToolsOf }) =>
        scriptToolsOf(skill, {
          trust: host.trust,
          timeoutMs: host.settings.scripts?.timeoutMs,
          maxOutputBytes: host.settings.scripts?.maxOutputBytes,
          env: host.settings.scripts?.env,
          events: host.events,
          signal,
        }),
      )
      .then(
        ({ tools, diagnostics }) => {
          for (const d of diagnostics) host.diagnostic(d);
          reg.ready.set(skill, tools);
          reg.version++;
          return tools;
        },
        (error: unknown) => {
          reg.pending.delete(skill);
          if (signal?.aborted === true) throw error;
          host.diagnostic(
            diagnostic(
              "SCRIPT_TOOLS_FAILED",
              "warning",
              `the typed script tools of "${skill.name}" could not be derived: ${thrownText(error)}`,
              { path: skill.source.path },
            ),
          );
          reg.ready.set(skill, []);
          reg.version++;
          return [];
        },
      );
    reg.pending.set(skill, pending);
  }
  return pending;
}

function capResult(tool: CodeTool, result: ToolResult, maxBytes: number, host: CodeToolHost): ToolResult {
  const capped = capTextUtf8Bytes(
    result.content,
    maxBytes,
    (kept, size) =>
      `[skillctx: the result of ${tool.name} is cut here: ${kept} of its ${size} bytes are shown (limit ${maxBytes}).]`,
  );
  if (!capped.cut) return result;
  host.diagnostic(
    diagnostic(
      "TOOL_RESULT_CUT",
      "warning",
      `the result of ${quoted(tool.name)} (${capped.size} bytes) is over skillTools.maxCodeToolResultBytes (${maxBytes}); only its first part reaches the model`,
    ),
  );
  return { ...result, content: capped.text };
}
