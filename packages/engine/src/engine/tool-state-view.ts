/**
 * The narrow view of the state the skill tools get: the store writes, the view adds what goes with
 * each write (the `load` activation for the next step, its events, MCP servers started and withdrawn).
 */
import type { Activation, SkillState } from "../context-types.js";
import type { ContextTelemetry } from "../events/context-telemetry.js";
import { activationOf } from "./invocation.js";
import type { SkillServerPool } from "./skill-servers.js";
import type { ContextStateStore } from "./state-store.js";
import type { EngineLive } from "./step-deps.js";

/** What the view reads and writes besides the store. */
export interface ToolStateDeps {
  store: ContextStateStore;
  live: Pick<EngineLive, "snapshot" | "activations">;
  telemetry: Pick<ContextTelemetry, "activated" | "unloaded">;
  servers: Pick<SkillServerPool, "load" | "deactivate">;
  /** The context's signal (servers started by a `load` live until the context closes or the skill is unloaded). */
  signal: AbortSignal;
}

/** The state as the skill tools see it. */
export function createToolStateView(deps: ToolStateDeps): SkillState {
  const { store, live, telemetry, servers } = deps;
  return {
    get activeSkill() {
      return store.activeSkill;
    },
    activate: (name) => {
      const previous = store.activate(name);
      const skill = live.snapshot.skillSet.byName.get(name);
      const activation: Activation =
        skill === undefined ? { skill: name, trigger: "load" } : activationOf(skill, { trigger: "load" });
      live.activations.push(activation);
      if (previous !== undefined) telemetry.unloaded(previous);
      telemetry.activated(activation);
      if (skill !== undefined) servers.load(skill, deps.signal);
      // The skill that was active is unloaded: its MCP tools are withdrawn (servers of fired skills stay).
      if (previous !== undefined) servers.deactivate(previous);
      return previous;
    },
    deactivate: () => {
      const name = store.deactivate();
      if (name !== undefined) servers.deactivate(name);
      if (name !== undefined) telemetry.unloaded(name);
      return name;
    },
    frozen: (key) => store.frozen(key),
    freeze: (key, text) => store.freeze(key, text),
    skillState: (namespace) => store.skillState(namespace),
    setSkillState: (namespace, value) => store.setSkillState(namespace, value),
  };
}
