/** `skillctx/ai-sdk`: skillctx in a Vercel AI SDK 6 loop. Imports only `ai`'s types (the sub-agent runner loads `ai` on its first run). */
export {
  createAiSdkLoop,
  fromAiSdkMessages,
  skillctxPrepareStep,
  toAiSdkMessages,
  toAiSdkTools,
} from "./adapters/ai-sdk.js";
export type { AiSdkLoop, AiSdkSkillTool, AiSdkStepOptions } from "./adapters/ai-sdk.js";
export { aiSdkSubAgent } from "./adapters/ai-sdk-sub-agent.js";
export type { AiSdkModelResolver, AiSdkSubAgentOptions } from "./adapters/ai-sdk-sub-agent.js";
