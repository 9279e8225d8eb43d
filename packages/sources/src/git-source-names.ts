import { checkRelativePath } from "@skillctx/core/internal";
import { GIT_ALLOWED_PROTOCOLS } from "@skillctx/process";
import type { GitSkillSource } from "./types.js";

// What a git source may give git, and how it is named: checked before git runs.

/** Transports git may use for a source: everything else (`ext::`, `fd::`, helpers) is refused by git itself too. */
const ALLOWED_PROTOCOLS = GIT_ALLOWED_PROTOCOLS;
/** A full commit id (SHA-1 or SHA-256). */
export const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The stable key of a git source in the lockfile: `git:<url>#<path>`. The ref is not part of it: a
 * changed ref is drift of the same source (the lock records the ref it resolved).
 */
export function gitSourceKey(source: GitSkillSource): string {
  return `git:${source.git}#${normalisedPath(source.path) ?? ""}`;
}

/** The source's label: `name`, else the URL's last two path segments without `.git` (`owner/repo`). */
export function gitSourceName(source: GitSkillSource): string {
  if (source.name !== undefined && source.name !== "") return source.name;
  const tail = source.git
    .replace(/[?#].*$/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "");
  const parts = tail.split(/[/:]/).filter((p) => p !== "");
  return parts.slice(-2).join("/") || source.git;
}

/**
 * Why git must not be given `url`, or undefined when it may: only `https://`, `ssh://`, `git://`,
 * `file://` URLs and scp-like `[user@]host:path` are accepted. Refused: anything starting with `-`
 * (it would be read as an option), transport helpers (`ext::`, `fd::`, any `::`), plain local paths,
 * other schemes, control characters and whitespace.
 */
export function gitUrlProblem(url: string): string | undefined {
  if (url === "") return "the URL is empty";
  if (url.startsWith("-")) return "a URL must not start with '-'";
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return "a URL must not contain whitespace or control characters";
  if (url.includes("::")) return "transport helpers (such as ext::) are not allowed";
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (!ALLOWED_PROTOCOLS.includes(scheme))
      return `the ${scheme}:// transport is not allowed (allowed: ${ALLOWED_PROTOCOLS.join(", ")})`;
    const host = /^[^:]+:\/\/(?:[^@/]*@)?([^/:]*)/.exec(url)?.[1] ?? "";
    if (host.startsWith("-")) return "a host must not start with '-'";
    return undefined;
  }
  // scp-like syntax: [user@]host:path (ssh), where host has no '/' before the colon.
  const scp = /^(?:([A-Za-z0-9._~-]+)@)?([A-Za-z0-9._-]+):(?!\/\/)(.+)$/.exec(url);
  if (scp !== null && !scp[2]!.startsWith("-")) return undefined;
  return "give an https://, ssh://, git:// or file:// URL, or user@host:path";
}

/**
 * Why git must not be given `ref`, or undefined when it may: a branch, tag, full ref name or full
 * commit id. Refused: a leading `-`, `:` (a refspec would write local refs), `..`, whitespace,
 * control characters and the other characters git forbids in ref names (`~^?*[\`), `@{`.
 */
export function gitRefProblem(ref: string): string | undefined {
  if (ref === "") return "the ref is empty";
  if (ref.startsWith("-")) return "a ref must not start with '-'";
  if (/[\s\u0000-\u001f\u007f:~^?*[\\]/.test(ref))
    return "a ref must not contain whitespace, control characters or any of : ~ ^ ? * [ \\";
  if (
    ref.includes("..") ||
    ref.includes("@{") ||
    ref.includes("//") ||
    ref.endsWith("/") ||
    ref.endsWith(".lock") ||
    ref.startsWith("/")
  ) {
    return "not a valid ref name";
  }
  return undefined;
}

/** The source's sub-folder, normalised; undefined for the repository's root or a refused path. */
export function normalisedPath(given: unknown): string | undefined {
  if (typeof given !== "string" || given === "" || given === "." || given === "./") return undefined;
  const checked = checkRelativePath(given.replace(/\/+$/, ""));
  return checked.ok ? checked.path : undefined;
}
