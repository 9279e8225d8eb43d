// A Node module hook for tests: `@modelcontextprotocol/sdk` cannot be resolved, with Node's own error
// for a missing package, as on an install without the optional peer. Load it with
// `node --import ./test/helpers/no-mcp-sdk.mjs ...` (module.register runs the hooks off-thread).
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === "@modelcontextprotocol/sdk" || specifier.startsWith("@modelcontextprotocol/sdk/")) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + (context.parentURL ?? "?"));
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}
`)}`,
);
