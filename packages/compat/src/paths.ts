import { toPosixRelative } from "@skillctx/core/internal";

export { isInside } from "@skillctx/core/internal";

/** `file` relative to `root` with `/` separators (`.` for the root itself), or `file` when it lies outside. */
export function displayPath(file: string, root: string): string {
  const relative = toPosixRelative(root, file);
  return relative === undefined ? file : relative === "" ? "." : relative;
}
