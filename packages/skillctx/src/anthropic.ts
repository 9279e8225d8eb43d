/** `skillctx/anthropic`: the anthropic adapter. Imports only its framework's types. */
export * from "./adapters/anthropic.js";
