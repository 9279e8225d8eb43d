/** `skillctx/ai-sdk`: the ai-sdk adapter. Imports only its framework's types. */
export * from "./adapters/ai-sdk.js";
