/**
 * Reading back a file skillctx wrote to its cache (remembered refs, cached indexes): regular files
 * only, through core's reader, which opens without blocking and refuses a FIFO, device, socket or
 * folder (and a symlink to one) before a byte is read. A missing file is simply not cached; anything
 * else that is not a regular file is ignored with a CACHE_FILE_NOT_REGULAR warning, never a hang.
 */
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { readTextFile } from "@skillctx/core/internal";

/** The text of the cache file `file` (at most `maxBytes`), or undefined when it is absent or unusable. */
export async function readCacheText(
  file: string,
  maxBytes: number,
  diagnostics?: Diagnostic[],
): Promise<string | undefined> {
  const read = await readTextFile(file, { maxBytes });
  if (read.ok) return read.text;
  if (read.code === "NOT_A_FILE")
    diagnostics?.push(
      diagnostic(
        "CACHE_FILE_NOT_REGULAR",
        "warning",
        `the cache file ${file} is a ${read.fileType ?? "special file"}, not a regular file; ignored`,
      ),
    );
  return undefined;
}
