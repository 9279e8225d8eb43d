import * as path from "node:path";

export { isInside } from "@skillctx/core/internal";

/** `file` relative to `root` with `/` separators, or the absolute path when it lies outside. */
export function displayPath(file: string, root: string): string {
  const relative = path.relative(root, file);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return relative === "" ? "." : file;
  return toPosix(relative);
}

/** A relative path with `/` separators. */
export function toPosix(relative: string): string {
  return path.sep === "/" ? relative : relative.split(path.sep).join("/");
}
