/** `skillctx/ai-sdk`: skillctx in a Vercel AI SDK 6 loop. Imports only `ai`'s types. */
export { createAiSdkLoop, fromAiSdkMessages, skillctxPrepareStep, toAiSdkMessages, toAiSdkTools } from "./adapters/ai-sdk.js";
export type { AiSdkLoop, AiSdkSkillTool, AiSdkStepOptions } from "./adapters/ai-sdk.js";
