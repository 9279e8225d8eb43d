/** `skillctx/openai`: the openai adapter. Imports only its framework's types. */
export * from "./adapters/openai.js";
