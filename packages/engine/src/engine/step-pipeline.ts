/**
 * One step, as a straight sequence of stages (the façade has run a due reload first): scan the new messages, place
 * `ctx.invoke` calls, discover nested skills, build attachments, suggest skills, re-attach condensed
 * bodies, note skill changes, commit the step to the state, reveal nested skills, start the fired
 * skills' servers, list the tools, assemble. Each stage takes the few parts of {@link EngineDeps} it
 * reads. The messages go through the tracker twice only: `scan` reads them (and finds where
 * invocations and notes go), `commit` records them.
 */
import type { Diagnostic } from "@skillctx/core";
import type { Activation, ContextStep, SkillSet } from "../context-types.js";
import type { StepNotes } from "../events/context-telemetry.js";
import type { Message } from "../messages.js";
import { buildAttachment } from "./attachment.js";
import type { BuiltAttachment } from "./attachment.js";
import type { PendingActivation, ScanResult } from "./conversation.js";
import { activationOf, invocationHits } from "./invocation.js";
import { withNestedSkills } from "./nested-skills.js";
import type { NestedDiscovery } from "./nested-skills.js";
import { reattachments } from "./reattach.js";
import type { Reattachments } from "./reattach.js";
import type { Attachment, Carrier } from "./state.js";
import type { EngineDeps } from "./step-deps.js";
import { suggestionNotes } from "./suggestions.js";

/** What a step reads and writes: every part but telemetry (the façade wraps the step in it), the event bus and the renderer. */
export type StepDeps = Pick<
  EngineDeps,
  | "live"
  | "options"
  | "tracker"
  | "store"
  | "nested"
  | "toolbox"
  | "search"
  | "templates"
  | "limits"
  | "attachment"
  | "hotReload"
  | "servers"
  | "turns"
  | "diagnostics"
>;

/** Builds one step for `messages`; `observed` gets the attachments made when someone observes the step. */
export async function runStep(
  deps: StepDeps,
  messages: readonly Message[],
  signal: AbortSignal,
  observed?: StepNotes,
): Promise<ContextStep> {
  const { snapshot } = deps.live;
  const skills = snapshot.skillSet;
  const scan = scanMessages(deps, messages, skills);
  const notes: Diagnostic[] = [...scan.notes];
  const invoked = placeInvocations(deps, scan, skills, notes);
  const pending = invoked.pending.length === 0 ? scan.pending : [...scan.pending, ...invoked.pending];
  const discovery = await discoverNested(deps, scan, skills, signal);
  const fired = await buildAttachments(deps, pending, signal);
  const suggested = await suggestionNotes(deps, scan, skills, signal);
  signal.throwIfAborted();
  const reattached = reattach(deps, scan, skills, pending);
  const made = [
    ...(reattached?.attachments ?? []),
    ...fired.built.map((b) => b.attachment),
    ...suggested,
    ...(discovery?.found ?? []).flatMap((f) => (f.note === undefined ? [] : [f.note])),
    ...(discovery?.cutLines ?? []),
    ...deps.hotReload.note(scan.newest, skills),
  ];
  if (observed !== undefined) observed.made = made;
  const committed = commitStep(deps, { scan, fired, made, reattached, discovery });
  deps.live.invocations.splice(0, invoked.placed);
  if (discovery !== undefined) revealNested(deps, discovery);
  deps.turns.assertOpen();
  await startServers(deps, fired.pending, signal);
  await deps.toolbox.prepareCodeTools(signal);
  const tools = deps.toolbox.definitions();
  const activated: Activation[] = [
    ...deps.live.activations,
    ...fired.pending.map((p) => activationOf(p.skill, { trigger: p.trigger, match: p.match, messageIndex: p.index })),
  ];
  // Every diagnostic of the step is also a `diagnostic` event once: the held ones were emitted when reported.
  const found = [...notes, ...(discovery?.diagnostics ?? []), ...(reattached?.diagnostics ?? [])];
  deps.diagnostics.announce(found);
  const diagnostics = [...deps.diagnostics.drain(), ...found];
  deps.live.activations = [];
  return {
    system: snapshot.parts.system,
    messages: committed.messages,
    attachments: committed.attachments,
    tools,
    activated,
    diagnostics,
  };
}

// --- stages ---------------------------------------------------------------------------------------

// The messages new since the last step: their hits, the load carrier, the folders the model touched,
// where invocations and notes go.
function scanMessages(
  deps: Pick<EngineDeps, "tracker" | "options" | "nested" | "toolbox" | "search">,
  messages: readonly Message[],
  skills: SkillSet,
): ScanResult {
  return deps.tracker.scan(messages, {
    skills,
    cwd: deps.options.cwd,
    withTouched: deps.nested.enabled,
    isSkillTool: (name) => deps.toolbox.kindOf(name) === "skill",
    withUserText: deps.search.suggestions !== undefined,
  });
}

// `ctx.invoke` calls become commands on the last new user message, else on the newest message; with no message they wait.
function placeInvocations(
  deps: Pick<EngineDeps, "live">,
  scan: ScanResult,
  skills: SkillSet,
  notes: Diagnostic[],
): { pending: PendingActivation[]; placed: number } {
  const invocations = deps.live.invocations;
  if (invocations.length === 0 || scan.invokeAt === undefined) return { pending: [], placed: 0 };
  const placed = invocations.length;
  return { pending: invocationHits(invocations.slice(0, placed), skills, scan.invokeAt, notes), placed };
}

// Skill folders below paths the model touched, looked at once each.
async function discoverNested(
  deps: Pick<EngineDeps, "nested" | "store" | "options" | "templates" | "toolbox">,
  scan: ScanResult,
  skills: SkillSet,
  signal: AbortSignal,
): Promise<NestedDiscovery | undefined> {
  const { nested, store } = deps;
  if (scan.touched.length === 0 || !nested.hasWork(scan.touched, (folder) => store.isNoted(folder))) return undefined;
  const options = deps.options;
  return nested.discover(scan.touched, {
    skills,
    revealed: store.nested,
    isNoted: (folder) => store.isNoted(folder),
    templates: deps.templates,
    catalogFormat: options.catalog?.format,
    loadInstruction: deps.toolbox.toolset.loadInstruction,
    disabled: new Set(options.sources?.disabled ?? []),
    signal,
    budgetTokens: options.catalog?.budgetTokens,
  });
}

/** The activations that fired (their attachment built) and their attachments, in the same order. */
interface Fired {
  pending: PendingActivation[];
  built: BuiltAttachment[];
}

// Most steps fire nothing: they skip the attachment work altogether. A body that cannot be read drops its activation.
async function buildAttachments(
  deps: Pick<EngineDeps, "attachment">,
  pending: readonly PendingActivation[],
  signal: AbortSignal,
): Promise<Fired> {
  const fired: Fired = { pending: [], built: [] };
  if (pending.length === 0) return fired;
  const prepared = await Promise.all(pending.map((p) => buildAttachment(p, deps.attachment, signal)));
  pending.forEach((p, i) => {
    if (prepared[i] === undefined) return;
    fired.pending.push(p);
    fired.built.push(prepared[i]);
  });
  return fired;
}

// Bodies due again after condensation, to the newest message; skills invoked in this step are attached afresh.
function reattach(
  deps: Pick<EngineDeps, "store" | "options" | "templates" | "limits">,
  scan: ScanResult,
  skills: SkillSet,
  pending: readonly PendingActivation[],
): Reattachments | undefined {
  const due = deps.store.due;
  if (due.length === 0) return undefined;
  const context = {
    cwd: deps.options.cwd,
    templates: deps.templates,
    skills,
    maxSkillBytes: deps.limits.maxReattachedSkillBytes,
    maxTotalBytes: deps.limits.maxReattachedTotalBytes,
    frozen: (key: string) => deps.store.frozen(key),
  };
  const invokedNow = new Set(pending.filter((p) => p.trigger === "command").map((p) => p.skill.name));
  return reattachments(due, scan.newest, context, invokedNow);
}

// Records the step in the state and returns the scanned messages with their attachments.
function commitStep(
  deps: Pick<EngineDeps, "tracker">,
  step: {
    scan: ScanResult;
    fired: Fired;
    made: Attachment[];
    reattached: Reattachments | undefined;
    discovery: NestedDiscovery | undefined;
  },
): ReturnType<EngineDeps["tracker"]["commit"]> {
  const carriers: Carrier[] = [];
  for (const { attachment, body } of step.fired.built) {
    if (attachment.trigger === "command")
      carriers.push({
        skill: attachment.skill,
        kind: "command",
        fingerprint: attachment.fingerprint,
        match: attachment.match,
        body,
      });
  }
  return deps.tracker.commit({
    attachments: step.made,
    carriers,
    loadCarrier: step.scan.loadCarrier,
    dropCarriers: step.reattached?.dropped,
    revealed: (step.discovery?.found ?? []).filter((f) => f.skills.length > 0).map((f) => f.folder),
  });
}

// Nested skills found in this step join the skills in use (outside `system`): a new snapshot with them.
function revealNested(deps: Pick<EngineDeps, "nested" | "live">, discovery: NestedDiscovery): void {
  deps.nested.markChecked(discovery.checked);
  const { snapshot } = deps.live;
  const skillSet = withNestedSkills(
    snapshot.skillSet,
    discovery.found.flatMap((f) => f.skills),
  );
  if (skillSet !== snapshot.skillSet) deps.live.snapshot = Object.freeze({ ...snapshot, skillSet });
}

// The MCP servers of the skills that fired start; the step waits for the servers being started to list their tools.
async function startServers(
  deps: Pick<EngineDeps, "servers">,
  fired: readonly PendingActivation[],
  signal: AbortSignal,
): Promise<void> {
  if (fired.length > 0)
    deps.servers.activate(
      fired.map((p) => p.skill),
      signal,
    );
  await deps.servers.settled();
}
