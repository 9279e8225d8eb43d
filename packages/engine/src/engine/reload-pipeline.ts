/**
 * The reload of skills and guidance, as a sequence of stages: resolve the sources (remote ones only
 * when there are any), load the skill set, render the guidance (frozen), build `system`, restore
 * nested skills revealed earlier, settle against the previous load (hot reload) and seed declared
 * skill state. It returns a new {@link SkillSnapshot} and leaves swapping it in to the caller; the
 * MCP servers are reloaded after the swap ({@link reloadServers}). Each stage takes the parts it reads.
 */
import { cacheDirSeenFrom, errorText, projectRoot } from "@skillctx/core/internal";
import type { Diagnostic, Skill, SkillSourceInput } from "@skillctx/core";
import { diagnostic, readSkillContent } from "@skillctx/core";
import type { SourceInput } from "@skillctx/sources";
import type { SkillSet } from "../context-types.js";
import { declaredStates } from "../code/skill-state.js";
import type { ResolvedSources } from "@skillctx/sources/resolve";
import { isRemoteSource } from "@skillctx/sources";
import { SEARCH_TOOL } from "../tools/presets/common.js";
import { withNestedSkills } from "./nested-skills.js";
import type { AgentContextOptions } from "./options.js";
import { loadSkillSet } from "./skill-set.js";
import type { EngineParts, SkillSnapshot } from "./step-deps.js";
import { buildSystem } from "./system-prompt.js";

/** What a reload reads and writes. */
export type ReloadDeps = Pick<
  EngineParts,
  "options" | "turns" | "hotReload" | "store" | "render" | "templates" | "limits" | "nested" | "diagnostics" | "toolset"
>;

/**
 * Re-reads skills and guidance from `skills` and the options (metadata only where unchanged) and
 * returns the new snapshot, compared with `previous` (undefined at the first load). Nothing in use
 * changes until the caller swaps the snapshot in.
 */
export async function reloadSkills(
  deps: ReloadDeps,
  skills: SourceInput[] | undefined,
  previous: SkillSnapshot | undefined,
  signal: AbortSignal | undefined,
): Promise<SkillSnapshot> {
  const o: AgentContextOptions = { ...deps.options, skills };
  const sources = await resolveSkillSources(o, signal);
  deps.turns.assertOpen();
  await deps.hotReload.sources(o, sources.remote, previous?.skillSet.guidance ?? []);
  const skillSet = await loadSkillSet({
    cwd: o.cwd,
    skills: sources.local,
    remote: sources.remote,
    sources: o.sources,
    model: o.model,
    guidance: o.guidance,
    trust: o.trust,
    signal,
  });
  deps.turns.assertOpen();
  const diagnostics: Diagnostic[] = [...sources.diagnostics, ...skillSet.diagnostics];
  const guidanceText = await renderGuidance(deps, skillSet, signal, diagnostics);
  const built = buildSystem({
    systemPrompt: o.systemPrompt,
    skills: {
      // Guidance that could not be read is left out of `system` (a diagnostic says why).
      guidance: skillSet.guidance.filter((skill) => guidanceText.has(skill.name)),
      catalog: skillSet.catalog,
    },
    guidanceText,
    cwd: o.cwd,
    templates: deps.templates,
    catalog: o.catalog,
    maxGuidanceBytes: deps.limits.maxGuidanceBlockBytes,
    toolset: { loadInstruction: deps.toolset.loadInstruction, searchTool: SEARCH_TOOL },
  });
  // Nested skill folders revealed earlier in the conversation (or in a resumed one) join again, outside `system`.
  const nested = await deps.nested.restore(
    deps.store.nested,
    skillSet,
    new Set(o.sources?.disabled ?? []),
    signal,
    diagnostics,
  );
  deps.turns.assertOpen();
  const inUse = withNestedSkills(skillSet, nested);
  const parts = deps.hotReload.settle(previous?.skillSet, inUse, built);
  seedSkillStates(deps, inUse, diagnostics);
  for (const d of [...diagnostics, ...built.diagnostics]) deps.diagnostics.sink(d);
  return Object.freeze({ skillSet: inUse, parts });
}

/**
 * Reloads the MCP servers for the snapshot in use. The conversation is left as it is: new skills fire
 * on new messages only, so the prefix stays stable. Servers of attached skills are offered for the
 * conversation, those of the loaded skill until unloaded. The project's own .mcp.json /
 * .cursor/mcp.json servers start with them (trust-gated).
 */
export async function reloadServers(
  deps: Pick<EngineParts, "options" | "servers" | "store">,
  snapshot: SkillSnapshot,
  signal: AbortSignal | undefined,
): Promise<void> {
  const o = deps.options;
  deps.servers.useProjectConfig(o.cwd, o.sources?.homeDir);
  const attached = deps.store.attachments.filter((a) => a.trigger !== "catalog").map((a) => a.skill);
  await deps.servers.reload(snapshot.skillSet, [...new Set(attached)], signal, deps.store.activeSkill);
}

// --- stages ---------------------------------------------------------------------------------------

// Remote sources (git, URL, MCP) and their lockfile load only when a context has one.
async function resolveSkillSources(o: AgentContextOptions, signal: AbortSignal | undefined): Promise<ResolvedSources> {
  if (!(o.skills ?? []).some(isRemoteSource))
    return { local: (o.skills ?? []) as SkillSourceInput[], remote: [], diagnostics: [] };
  const { resolveSources } = await import("@skillctx/sources/resolve");
  return resolveSources(o.skills, {
    cwd: o.cwd,
    // skills.lock.json lives at the project root (beside skills.json), whichever sub-folder the agent works in.
    lockDir: projectRoot(o.cwd, { homeDir: o.sources?.homeDir }),
    cacheDir: o.sources?.remote?.cacheDir ?? cacheDirSeenFrom(o.sources?.homeDir),
    lock: o.sources?.remote?.lock ?? "update",
    offline: o.sources?.remote?.offline ?? false,
    signal,
  });
}

// Each guidance file's text for `system`, in order; one that cannot be read is left out with a diagnostic.
async function renderGuidance(
  deps: Pick<EngineParts, "store" | "render">,
  skillSet: SkillSet,
  signal: AbortSignal | undefined,
  diagnostics: Diagnostic[],
): Promise<Map<string, string>> {
  const guidanceText = new Map<string, string>();
  for (const skill of skillSet.guidance) {
    const text = await frozenGuidance(deps, skill, signal, diagnostics);
    if (text !== undefined) guidanceText.set(skill.name, text);
  }
  return guidanceText;
}

// Guidance with commands is rendered once and frozen in state, so `system` stays byte-stable.
async function frozenGuidance(
  deps: Pick<EngineParts, "store" | "render">,
  skill: Skill,
  signal: AbortSignal | undefined,
  diagnostics: Diagnostic[],
): Promise<string | undefined> {
  const key = `guidance:${skill.name}`;
  const frozen = deps.store.frozen(key);
  if (frozen !== undefined) return frozen;
  try {
    const content = await readSkillContent(skill, signal === undefined ? {} : { signal });
    const text = await deps.render(content, skill, signal);
    if (text !== content) deps.store.freeze(key, text);
    return text;
  } catch (error) {
    signal?.throwIfAborted();
    const reason = errorText(error);
    diagnostics.push(
      diagnostic("SKILL_READ_FAILED", "error", `guidance "${skill.name}" is left out: ${reason}`, {
        path: skill.source.path,
      }),
    );
    return undefined;
  }
}

// Skills that declare state start from their initial state (a resumed conversation keeps its own).
function seedSkillStates(deps: Pick<EngineParts, "store">, skillSet: SkillSet, diagnostics: Diagnostic[]): void {
  const declared = declaredStates(skillSet.skills);
  for (const { namespace, value } of declared.states)
    if (deps.store.skillState(namespace) === undefined) deps.store.setSkillState(namespace, value);
  diagnostics.push(...declared.diagnostics);
}
