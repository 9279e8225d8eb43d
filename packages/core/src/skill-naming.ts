// How a skill file is read and named when its frontmatter has no name (a part of parseSkill).
import * as path from "node:path";
import { toPosixRelative } from "./fs/paths.js";

/** `skill-md` for SKILL.md / skill.md, `legacy` for any other file, `skill-md` without a path. */
export function formatOf(file: string | undefined): "skill-md" | "legacy" {
  if (file === undefined) return "skill-md";
  return path.basename(file).toLowerCase() === "skill.md" ? "skill-md" : "legacy";
}

/** The name a file gives a skill without a `name` field: its folder (SKILL.md), its path under `root` without the suffix (legacy). */
export function deriveName(
  format: "skill-md" | "legacy",
  file: string | undefined,
  options: { dir?: string | undefined; root?: string | undefined },
): string | undefined {
  if (format === "skill-md") {
    const folder = options.dir ?? (file === undefined ? undefined : path.dirname(file));
    const base = folder === undefined ? "" : path.basename(path.resolve(folder));
    return base === "" ? undefined : base;
  }
  if (file === undefined) return undefined;
  const inside = options.root === undefined ? undefined : toPosixRelative(options.root, file);
  const name = withoutSuffix(inside === undefined || inside === "" ? path.basename(file) : inside);
  return name === "" ? undefined : name;
}

/**
 * A path without the suffix of its last part, as OpenHands names legacy skills (Python's
 * `PurePath.with_suffix("")`): a dot that starts the name is not a suffix, so `.openhands_instructions`
 * keeps its name and `a/.b.md` is `a/.b`. Unlike Python, a name is never cut down to dots (`..md` stays).
 */
export function withoutSuffix(posixPath: string): string {
  const slash = posixPath.lastIndexOf("/");
  const base = posixPath.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  if (dot <= 0 || dot === base.length - 1) return posixPath;
  const stem = base.slice(0, dot);
  if (/^\.+$/.test(stem)) return posixPath;
  return posixPath.slice(0, slash + 1) + stem;
}
