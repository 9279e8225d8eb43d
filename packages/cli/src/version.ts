import { createRequire } from "node:module";

/** The version in @skillctx/cli's package.json (the packages are versioned together), found by the package's own name (the build bundles this file into a chunk, so no relative path holds). */
export function version(): string {
  const pkg = createRequire(import.meta.url)("@skillctx/cli/package.json") as { version?: unknown };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}
