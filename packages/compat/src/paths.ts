import * as path from "node:path";

/** `file` relative to `root` with `/` separators, or the absolute path when it lies outside. */
export function displayPath(file: string, root: string): string {
  const relative = path.relative(root, file);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return relative === "" ? "." : file;
  return toPosix(relative);
}

/** Whether `file` is `root` or lies below it (both already resolved). */
export function isInside(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

/** A relative path with `/` separators. */
export function toPosix(relative: string): string {
  return path.sep === "/" ? relative : relative.split(path.sep).join("/");
}
