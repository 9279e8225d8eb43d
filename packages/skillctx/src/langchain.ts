/** `skillctx/langchain`: the LangChain.js adapter. Imports `@langchain/core` and the types of `langchain` only. */
export * from "./adapters/langchain.js";
