/** `skillctx/openai-agents`: the openai-agents adapter. Imports only its framework's types. */
export * from "./adapters/openai-agents.js";
