#!/usr/bin/env node
// The `skillctx` bin. It imports only the dispatcher: help and --version load no command, engine,
// tokenizer or YAML parser; each command's module is imported when it runs.
import { main } from "./cli/main.js";

await main(process.argv.slice(2));
