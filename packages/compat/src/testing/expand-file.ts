// Test helper (excluded from the build): `expandImports` on a file of a temp repository, as the loaders call it.
import { readFile, realpath } from "node:fs/promises";
import * as path from "node:path";
import { expandImports } from "../imports.js";
import type { ExpandImportsOptions } from "../imports.js";

/** Expands the `@import` mentions of `repo/file`, the repository being `repo` and the budget 256 KiB unless `extra` says. */
export async function expandFile(repo: string, file: string, extra: Partial<ExpandImportsOptions> = {}) {
  const text = await readFile(path.join(repo, file), "utf8");
  return expandImports(text, path.join(repo, file), {
    repoRoot: await realpath(repo),
    displayRoot: repo,
    maxBytes: 262_144,
    ...extra,
  });
}
