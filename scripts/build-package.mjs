#!/usr/bin/env node
// Builds the package in the current folder: `tsc -p tsconfig.build.json` into `dist.next/`, which then
// replaces `dist/`. A fresh folder each time, so no file of a deleted source stays behind to be packed;
// a failed build leaves the previous `dist/` in place.
import { execFileSync } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const next = "dist.next";
rmSync(next, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", next], { stdio: "inherit" });
} catch {
  rmSync(next, { recursive: true, force: true });
  process.exit(1);
}
if (existsSync("dist")) rmSync("dist", { recursive: true, force: true });
renameSync(next, "dist");
