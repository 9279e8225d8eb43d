import micromatch from "micromatch";

/**
 * Reads a `globs` / `applyTo` value as authors write it: a comma-separated string
 * (`src/**\/*.ts, lib/**`), a YAML list, or empty. Commas inside `{}` or `[]` do not split.
 * Returns undefined when the value has another type.
 */
export function readGlobList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return splitGlobs(value);
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const item of value) {
      if (typeof item !== "string") return undefined;
      out.push(...splitGlobs(item));
    }
    return out;
  }
  return undefined;
}

/** Why a glob cannot be used. */
export type GlobProblem = "negated" | "parent" | "empty";

/**
 * Normalises one glob, written relative to the folder that holds the rule, to micromatch form:
 * a leading `./` or `/` is dropped, a trailing `/` means everything below, and a glob without `/`
 * matches at any depth (`*.ts` → `**\/*.ts`), as in `.gitignore`.
 */
export function normalizeGlob(glob: string): { glob: string } | { problem: GlobProblem } {
  let g = glob.trim();
  if (g.startsWith("!")) return { problem: "negated" };
  while (g.startsWith("./")) g = g.slice(2);
  const anchored = g.startsWith("/");
  g = g.replace(/^\/+/, "");
  if (g.endsWith("/")) g = `${g}**`;
  if (g === "") return { problem: "empty" };
  if (g.split("/").includes("..")) return { problem: "parent" };
  if (!anchored && !g.includes("/")) g = `**/${g}`;
  return { glob: g };
}

/** Escapes glob syntax in a literal folder path (`app/[id]` → `app/\[id\]`). */
export function escapeGlob(literal: string): string {
  return literal.replace(/[\\*?[\]{}()!+@|^$]/g, "\\$&");
}

/** Globs for everything below `folder` (cwd-relative): `server` → `server/**`. */
export function folderGlob(folder: string): string {
  return `${escapeGlob(folder)}/**`;
}

/**
 * Moves a normalised glob written for folder A so that it matches paths relative to cwd.
 * `down` is the path from cwd to A when A is inside cwd (the glob gets that prefix); `up` is the
 * path from A to cwd when cwd is inside A (the prefix is consumed, `**` may absorb any of it).
 * Returns every glob needed (braces are expanded first); none when the glob only matches outside cwd.
 */
export function relocateGlob(glob: string, where: { down: string } | { up: string }): string[] {
  if ("down" in where) return [where.down === "" ? glob : `${escapeGlob(where.down)}/${glob}`];
  if (where.up === "") return [glob];
  const prefix = where.up.split("/");
  const out = new Set<string>();
  for (const expanded of micromatch.braces(glob, { expand: true })) {
    for (const rest of consume(expanded.split("/"), prefix)) out.add(rest);
  }
  return [...out];
}

// Globs R such that prefix/p matches the glob segments G exactly when p matches one of R.
function consume(glob: readonly string[], prefix: readonly string[]): string[] {
  if (prefix.length === 0) return glob.length === 0 ? [] : [glob.join("/")];
  const [head, ...rest] = glob;
  if (head === undefined) return [];
  if (head === "**") return [...consume(rest, prefix), ...consume(glob, prefix.slice(1))];
  if (!micromatch.isMatch(prefix[0] ?? "", head, { dot: true })) return [];
  return consume(rest, prefix.slice(1));
}

function splitGlobs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "{" || ch === "[") depth++;
    else if ((ch === "}" || ch === "]") && depth > 0) depth--;
    if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out.map(unquote).filter((g) => g !== "");
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1).trim();
  return t;
}
