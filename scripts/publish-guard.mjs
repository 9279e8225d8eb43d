#!/usr/bin/env node
// Every package's `prepack`: refuses to pack (and so to publish) a package whose package.json has a
// `workspace:` range, unless pnpm runs the pack. `pnpm pack` / `pnpm publish` (and `changeset publish`,
// which calls pnpm) write the real version in place of each `workspace:*` in the tarball; `npm pack` and
// `npm publish` copy it as is, and such a tarball cannot be installed. pnpm runs lifecycle scripts with
// npm_config_user_agent starting with `pnpm/` (npm's with `npm/`).
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const fields = ["dependencies", "peerDependencies", "optionalDependencies"];
const workspaceRanges = fields.flatMap((field) =>
  Object.entries(pkg[field] ?? {})
    .filter(([, range]) => String(range).startsWith("workspace:"))
    .map(([name, range]) => `${field}.${name}: ${range}`),
);
const agent = process.env.npm_config_user_agent ?? "";
if (workspaceRanges.length > 0 && !agent.startsWith("pnpm/")) {
  console.error(
    [
      `${pkg.name}: refusing to pack: package.json has workspace ranges that only pnpm rewrites (${workspaceRanges.join(", ")}).`,
      `This tarball could not be installed. Pack or publish with pnpm from the repository: npx -y pnpm@10.34.9 -r pack, or the release steps in docs/releasing.md (changeset publish).`,
      `The package manager running this was: ${agent === "" ? "unknown (no npm_config_user_agent)" : agent.split(" ")[0]}.`,
    ].join("\n"),
  );
  process.exit(1);
}
