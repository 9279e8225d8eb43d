/**
 * defineSkill's check that a schema is zod 4. zod is a peer dependency of `skillctx` (`^4.0.0`): the
 * user's `import { z } from "zod"` must be the zod skillctx reads. A zod 3 schema type-checks against the
 * structural `ZodLike` of `SkillStateSpec` and would fail later, at a tool call; so defineSkill refuses
 * it when it is made, with a typed error that names the zod version the project has installed.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { SkillctxError } from "@skillctx/core";
import { safeParseJson } from "@skillctx/core/internal";

/** The zod range skillctx reads (the `zod` entry of `skillctx`'s peerDependencies). */
export const ZOD_PEER_RANGE = "^4.0.0";

/** Whether `schema` looks like a zod 3 schema: zod's `safeParse` and `_def`, without zod 4's `_zod`. */
export function isZod3Schema(schema: unknown): boolean {
  return (
    typeof schema === "object" &&
    schema !== null &&
    !("_zod" in schema) &&
    "_def" in schema &&
    typeof (schema as { safeParse?: unknown }).safeParse === "function"
  );
}

/** The version and folder of the `zod` package a module in `fromDir` would import, if one is found. */
export function installedZod(fromDir: string): { version: string; dir: string } | undefined {
  try {
    const file = createRequire(path.join(fromDir, "noop.js")).resolve("zod/package.json");
    const parsed = safeParseJson(readFileSync(file, "utf8"));
    const version = parsed.ok ? (parsed.value as { version?: unknown } | null)?.version : undefined;
    return typeof version === "string" ? { version, dir: path.dirname(file) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The error for a zod 3 schema at `field` of skill `skill`: code `ZOD_VERSION_UNSUPPORTED`, its message
 * and `data.zodVersion` naming the zod installed where the project resolves it (`fromDir`, default the
 * process's folder), or null when none is found there.
 */
export function zod3Error(skill: string, field: string, fromDir: string = process.cwd()): SkillctxError {
  const found = installedZod(fromDir);
  const hint =
    found === undefined
      ? `no zod package resolves from ${fromDir}: npm install zod@${ZOD_PEER_RANGE}`
      : found.version.startsWith("3.")
        ? `zod ${found.version} is installed (${found.dir}): npm install zod@${ZOD_PEER_RANGE}`
        : `zod ${found.version} is installed (${found.dir}), so the schema comes from its "zod/v3" entry or another copy of zod: import { z } from "zod"`;
  return new SkillctxError(
    "ZOD_VERSION_UNSUPPORTED",
    `defineSkill "${skill}": ${field} is a zod 3 schema; skillctx needs zod 4 (peer dependency zod@${ZOD_PEER_RANGE}): ${hint}`,
    { data: { skill, field, zodVersion: found?.version ?? null } },
  );
}
