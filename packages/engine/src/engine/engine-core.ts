/**
 * What a context runs, loaded by {@link AgentContext.create} on first use rather than when `skillctx` is
 * imported: the step and reload pipelines, the tools and everything they reach (about three quarters of the
 * engine's code). A host that imports skillctx and creates no context, or creates it later, does not compile
 * them at start-up (docs/performance.md, "Start-up").
 */
export { runsBeside } from "../tools/sub-agent-support.js";
export { closeEngine, startEngine } from "./engine-wiring.js";
export { resolveInvocation } from "./invocation.js";
export { reloadServers, reloadSkills } from "./reload-pipeline.js";
export { runStep } from "./step-pipeline.js";
export { observedCall } from "./tool-call.js";
