import { checkEnum } from "../option-checks.js";
import type { CatalogResult, Diagnostic, Skill } from "@skillctx/core";
import { diagnostic } from "@skillctx/core";
import type { SkillSet, ToolDefinition, ToolProvider, ToolResult } from "../context-types.js";
import { compileAllowedTools } from "./allowed-tools.js";
import type { AllowedTools } from "./allowed-tools.js";
import { hostToolDefinition, runHostTool } from "./host-tools.js";
import type { HostTool } from "./host-tools.js";
import { RUN_TOOL, searchTool } from "./presets/common.js";
import { hasSkillToolWork } from "./skill-tools.js";
import { notLoadableReason } from "../tool-kit/skill-folder.js";
import type { SkillToolHost } from "./skill-tools.js";
import type { ToolFilterMode } from "../tool-kit/tool-settings.js";
import { normalizeArgs } from "../tool-kit/tool-args.js";
import { fail, quoted } from "../tool-kit/tool-result.js";
import type { SkillTool, Toolset } from "./toolset.js";
import { codeToolDefinition, CodeToolOffer, nameCodeTools, runCodeTool } from "../code/code-tools.js";
import type { SkillCodeToolsMode } from "../code/code-tools.js";
import type { CodeTool } from "../code/skill-code.js";
import { errorText } from "@skillctx/core/internal";

/** What the toolbox reads from its context on every step. */
export interface ToolboxHost extends SkillToolHost {
  readonly catalog: CatalogResult | undefined;
  readonly hostTools: readonly HostTool[];
  readonly providers: readonly ToolProvider[];
  /** When skills' code tools are offered (`tools.codeTools`). @default "active" */
  readonly skillCodeTools?: SkillCodeToolsMode;
}

/** Who answers a tool name: the host's tool, a skill tool, a skill's code tool, a provider's (MCP) tool, or nobody. */
export type ToolKind = "host" | "skill" | "code" | "provider" | undefined;

type Entry =
  | { kind: "host"; definition: ToolDefinition; tool: HostTool }
  | { kind: "skill"; definition: ToolDefinition; tool: SkillTool }
  | { kind: "code"; definition: ToolDefinition; tool: CodeTool }
  | { kind: "provider"; definition: ToolDefinition; provider: ToolProvider };

interface EntrySet {
  /** Every tool that answers a call. */
  list: Entry[];
  byName: Map<string, Entry>;
  /** The definitions offered: those of `list` but a tool that cannot work (see {@link offeredEntries}). */
  definitions: ToolDefinition[];
  offered: Entry[];
}

const allowedCache = new WeakMap<Skill, AllowedTools>();

// One definition object per host tool for the context's life: adapters keep their framework entries by
// definition identity, so a rebuild of the entries (a skill's code tools coming and going) keeps them.
const hostDefinitions = new WeakMap<HostTool, ToolDefinition>();
function definitionOf(tool: HostTool): ToolDefinition {
  let definition = hostDefinitions.get(tool);
  if (definition === undefined) hostDefinitions.set(tool, (definition = hostToolDefinition(tool)));
  return definition;
}

/**
 * The tools of a context: the host's, then the skill tools of the toolset, then the code tools of the
 * skills on offer (`code/code-tools.ts`: the active skill's, or every skill's), then the providers' (MCP),
 * in that stable order; a later tool with a taken name is left out with a warning, except a code tool,
 * which is renamed `<skill>__<name>`. While a skill with `allowed-tools` is active, `tools.filter` decides:
 * `filter` lists only the allowed tools plus the skill tools and the skill's own code tools, `refuse`
 * keeps the list byte-stable and refuses other calls, `off` ignores allowed-tools.
 */
export class Toolbox {
  private skillToolsFor: { skills: SkillSet; catalog: CatalogResult | undefined; tools: SkillTool[] } | undefined;
  private entriesFor:
    | {
        skillTools: SkillTool[];
        hostTools: readonly HostTool[];
        codeTools: CodeTool[];
        provided: ToolDefinition[][];
        set: EntrySet;
      }
    | undefined;
  private filteredFor: { set: EntrySet; skill: Skill; tools: ToolDefinition[] } | undefined;
  private readonly reported = new Set<string>();
  private warnedActivation: Skill | undefined;
  /** The code tools of the skills on offer (programmatic and typed script tools). */
  private readonly code: CodeToolOffer;

  constructor(
    private readonly host: ToolboxHost,
    readonly toolset: Toolset,
  ) {
    this.code = new CodeToolOffer(host, host.skillCodeTools ?? "active");
  }

  /** The tools of the next step (filtered by the active skill's allowed-tools in `filter` mode). */
  definitions(): ToolDefinition[] {
    const set = this.entries();
    const skill = this.activeSkill();
    const allowed = this.allowedFor(skill);
    if (skill === undefined || allowed === undefined) return set.definitions.slice();
    if (this.warnedActivation !== skill) {
      this.warnedActivation = skill;
      this.warnUnmatched(skill, allowed, set);
    }
    if (this.host.toolFilter === "refuse") return set.definitions.slice();
    if (this.filteredFor?.set !== set || this.filteredFor.skill !== skill) {
      const tools = set.offered
        .filter((e) => e.kind === "skill" || ownCodeTool(e, skill) || allowed.allows(e.definition.name))
        .map((e) => e.definition);
      this.filteredFor = { set, skill, tools };
    }
    return this.filteredFor.tools.slice();
  }

  /** Every tool, ignoring allowed-tools (what an adapter registers once; steps then narrow it). */
  allDefinitions(): ToolDefinition[] {
    return this.entries().definitions.slice();
  }

  /** Who answers a call to `name` (skill tools read and change the conversation's state). */
  kindOf(name: unknown): ToolKind {
    return typeof name === "string" ? this.entries().byName.get(name)?.kind : undefined;
  }

  /**
   * Whether a call to `name` must wait its turn: skill tools and code tools change the conversation's
   * state. A code tool whose skill is not active counts too (the call may follow a `load_skill` still queued).
   */
  runsExclusive(name: unknown): boolean {
    const kind = this.kindOf(name);
    return (
      kind === "skill" ||
      kind === "code" ||
      (kind === undefined && typeof name === "string" && this.code.ownerOf(name) !== undefined)
    );
  }

  /** The skill whose code tool answers `name`, if any (`tool.called` events, `skillctx.tool` spans). */
  codeToolSkill(name: unknown): string | undefined {
    const entry = typeof name === "string" ? this.entries().byName.get(name) : undefined;
    return entry?.kind === "code" ? entry.tool.skill.name : undefined;
  }

  /** Derives the typed script tools of the skills on offer, so the next listing has them (a step awaits this). */
  prepareCodeTools(signal: AbortSignal | undefined): Promise<void> {
    return this.code.prepare(signal);
  }

  /** Runs a tool call. Bad input (unknown tool, wrong arguments, refused tool) is an error result, never a throw. */
  async call(
    name: unknown,
    args: unknown,
    options: { signal?: AbortSignal | undefined; callId?: string | undefined } = {},
  ): Promise<ToolResult> {
    const { signal } = options;
    if (typeof name !== "string" || name.trim() === "") return fail("The tool name must be a non-empty string.");
    const set = this.entries();
    const entry = set.byName.get(name);
    if (entry === undefined) {
      const owner = this.code.ownerOf(name);
      if (owner !== undefined) {
        return fail(
          `The tool ${quoted(name)} belongs to the skill "${owner.name}", which is not active: load it first with ${this.toolset.loadInstruction}.`,
        );
      }
      return fail(
        `Unknown tool ${quoted(name)}. Available tools: ${
          this.definitions()
            .map((d) => d.name)
            .join(", ") || "(none)"
        }.`,
      );
    }
    if (entry.kind !== "skill" && !ownCodeTool(entry, this.activeSkill())) {
      const refusal = this.refusal(name);
      if (refusal !== undefined) return fail(refusal);
    }
    try {
      switch (entry.kind) {
        case "skill": {
          const result = await entry.tool.call(args, this.host, signal);
          // A skill just loaded offers its typed script tools from the next listing on.
          await this.code.prepare(signal);
          return result;
        }
        case "code":
          return await runCodeTool(entry.tool, args, this.host, {
            signal: signal ?? new AbortController().signal,
            callId: options.callId,
          });
        case "host":
          return await runHostTool(entry.tool, args, signal);
        case "provider": {
          const input = normalizeArgs(args);
          if (!input.ok) return fail(`Invalid arguments for ${name}: ${input.message}`);
          return await entry.provider.call(name, input.value, { signal });
        }
      }
    } catch (error) {
      if (signal?.aborted === true) throw error;
      return fail(`${name} failed: ${errorText(error)}`);
    }
  }

  /** Why a call to `name` is refused under the active skill, or undefined. */
  private refusal(name: string): string | undefined {
    const skill = this.activeSkill();
    const allowed = this.allowedFor(skill);
    if (skill === undefined || allowed === undefined || allowed.allows(name)) return undefined;
    const list = skill.allowedTools?.length ? skill.allowedTools.join(", ") : "none";
    return (
      `The tool "${name}" is not allowed while the skill "${skill.name}" is active (its allowed-tools: ${list}). ` +
      `Use an allowed tool, or ${this.toolset.unloadInstruction(skill.name)} to restore every tool.`
    );
  }

  private allowedFor(skill: Skill | undefined): AllowedTools | undefined {
    if (skill?.allowedTools === undefined || this.host.toolFilter === "off") return undefined;
    let allowed = allowedCache.get(skill);
    if (allowed === undefined) {
      allowed = compileAllowedTools(skill.allowedTools);
      allowedCache.set(skill, allowed);
    }
    return allowed;
  }

  // The active skill, or undefined; a stale name (the skill is gone or no longer loadable) is deactivated.
  private activeSkill(): Skill | undefined {
    const name = this.host.state.activeSkill;
    if (name === undefined) return undefined;
    const skill = this.host.skills.byName.get(name);
    if (skill !== undefined && notLoadableReason(skill) === undefined) return skill;
    this.host.state.deactivate();
    this.host.diagnostic(
      diagnostic(
        "ACTIVE_SKILL_GONE",
        "warning",
        `the active skill "${name}" is no longer available; every tool is available again`,
      ),
    );
    return undefined;
  }

  private warnUnmatched(skill: Skill, allowed: AllowedTools, set: EntrySet): void {
    const names = set.list.map((e) => e.definition.name);
    const unmatched = allowed.unmatched(names);
    if (unmatched.length === 0) return;
    this.host.diagnostic(
      diagnostic(
        "ALLOWED_TOOL_UNKNOWN",
        "warning",
        `allowed-tools of "${skill.name}" names tools this agent does not have: ${unmatched.join(", ")}`,
        { path: skill.source.path },
      ),
    );
  }

  private skillTools(): SkillTool[] {
    const { skills, catalog } = this.host;
    if (this.skillToolsFor?.skills !== skills || this.skillToolsFor.catalog !== catalog) {
      const tools = hasSkillToolWork(skills)
        ? this.toolset.tools(skills, { subAgents: this.host.subAgents !== undefined })
        : [];
      const partial = catalog !== undefined && catalog.omitted.length > 0;
      if (partial || (this.host.search.tool === "always" && hasSkillToolWork(skills))) {
        tools.push(searchTool(this.toolset.loadInstruction, !partial));
        // The index builds in the background from now: ready by the time the model calls the tool.
        this.host.search.prepare(skills);
      }
      this.skillToolsFor = { skills, catalog, tools };
    }
    return this.skillToolsFor.tools;
  }

  private entries(): EntrySet {
    const skillTools = this.skillTools();
    const hostTools = this.host.hostTools;
    const codeTools = this.code.current();
    const provided = this.host.providers.map((provider) => provider.definitions());
    const cached = this.entriesFor;
    if (
      cached !== undefined &&
      cached.skillTools === skillTools &&
      cached.hostTools === hostTools &&
      cached.codeTools === codeTools &&
      cached.provided.length === provided.length &&
      cached.provided.every((defs, i) => sameDefinitions(defs, provided[i]!))
    ) {
      return cached.set;
    }
    const set = this.buildEntries(skillTools, hostTools, codeTools, provided);
    this.entriesFor = { skillTools, hostTools, codeTools, provided, set };
    return set;
  }

  private buildEntries(
    skillTools: SkillTool[],
    hostTools: readonly HostTool[],
    codeTools: CodeTool[],
    provided: ToolDefinition[][],
  ): EntrySet {
    const reserved = new Set(skillTools.map((tool) => tool.definition.name));
    const byName = new Map<string, Entry>();
    const hostEntries: Entry[] = [];
    for (const tool of hostTools) {
      if (reserved.has(tool.name) || byName.has(tool.name)) {
        this.clash(tool.name, "host tool", reserved.has(tool.name) ? "a skill tool" : "an earlier host tool");
        continue;
      }
      const entry: Entry = { kind: "host", definition: definitionOf(tool), tool };
      byName.set(tool.name, entry);
      hostEntries.push(entry);
    }
    const skillEntries: Entry[] = skillTools.map((tool) => ({ kind: "skill", definition: tool.definition, tool }));
    for (const entry of skillEntries) byName.set(entry.definition.name, entry);
    // Code tools come next: a name another tool has (a provider's too) is namespaced, not left out.
    const codeEntries: Entry[] = [];
    if (codeTools.length > 0) {
      const taken = new Set([...byName.keys(), ...provided.flat().map((definition) => definition.name)]);
      for (const tool of nameCodeTools(codeTools, taken, (d) => this.report(d))) {
        if (byName.has(tool.name)) {
          this.clash(tool.name, "code tool", "another tool");
          continue;
        }
        const entry: Entry = { kind: "code", definition: codeToolDefinition(tool), tool };
        byName.set(tool.name, entry);
        codeEntries.push(entry);
      }
    }
    const providerEntries: Entry[] = [];
    this.host.providers.forEach((provider, i) => {
      for (const definition of provided[i]!) {
        if (byName.has(definition.name)) {
          this.clash(definition.name, "provided tool", "another tool");
          continue;
        }
        const entry: Entry = { kind: "provider", definition, provider };
        byName.set(definition.name, entry);
        providerEntries.push(entry);
      }
    });
    const list = [...hostEntries, ...skillEntries, ...codeEntries, ...providerEntries];
    const offered = offeredEntries(list, this.host.skills);
    return { list, byName, definitions: offered.map((e) => e.definition), offered };
  }

  private clash(name: string, what: string, taker: string): void {
    this.report(diagnostic("TOOL_NAME_CLASH", "warning", `${what} "${name}" is left out: ${taker} has that name`));
  }

  // Each clash is reported once per context, not on every rebuild of the tool list.
  private report(d: Diagnostic): void {
    if (this.reported.has(d.message)) return;
    this.reported.add(d.message);
    this.host.diagnostic(d);
  }
}

// A code tool of the active skill: its own tools are allowed whatever its allowed-tools say.
function ownCodeTool(entry: Entry, skill: Skill | undefined): boolean {
  return entry.kind === "code" && skill !== undefined && entry.tool.skill === skill;
}

function sameDefinitions(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  return a === b || (a.length === b.length && a.every((definition, i) => definition === b[i]));
}

/**
 * Checks the `tools.filter` option.
 *
 * @throws SkillctxError `INVALID_OPTIONS` for anything but `filter`, `refuse`, `off` or undefined.
 */
export function checkToolFilter(mode: unknown): ToolFilterMode {
  return checkEnum<ToolFilterMode>("tools.filter", mode, ["filter", "refuse", "off"], "refuse");
}

/**
 * The entries whose definitions are offered: `run_skill_script` only when a skill's scripts may run (a
 * `scripts/` folder and a trusted scope, `SkillSet.runnableScripts`). It still answers a call (with the
 * reason it cannot run), so a model that names it from memory learns why.
 */
function offeredEntries(list: Entry[], skills: SkillSet): Entry[] {
  if (skills.runnableScripts === undefined || skills.runnableScripts.size > 0) return list;
  return list.filter((e) => e.kind !== "skill" || e.definition.name !== RUN_TOOL);
}
