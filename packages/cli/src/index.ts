/**
 * `@skillctx/cli`: the `skillctx` command (the `skillctx` package's bin calls `main`). It imports only
 * the dispatcher: help and --version load no command, engine, tokenizer or YAML parser; each command's
 * module is imported when it runs.
 */
export { main } from "./main.js";
