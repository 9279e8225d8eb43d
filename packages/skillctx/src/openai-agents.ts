/** `skillctx/openai-agents`: skillctx in an OpenAI Agents JS run. Imports only `@openai/agents`' types. */
export {
  createOpenAIAgentsLoop,
  fromAgentItems,
  skillctxInputFilter,
  toOpenAIAgentsTools,
} from "./adapters/openai-agents.js";
export type { AgentsToolFactory, OpenAIAgentsLoop, OpenAIAgentsStepOptions } from "./adapters/openai-agents.js";
