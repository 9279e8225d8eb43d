import { jsonText } from "./format.js";
import { version } from "./version.js";

/**
 * The one top-level shape of every command's `--json` (docs/cli-json.schema.json): which command, which
 * skillctx, the command's own data, and every finding. Scripts read `data` and `diagnostics` the same
 * way whatever the command; `version` says which contract they read.
 */
export interface JsonEnvelope<T> {
  command: string;
  version: string;
  data: T;
  diagnostics: readonly unknown[];
}

/** `data` and `diagnostics` of `command` as one JSON document (see {@link JsonEnvelope}). */
export function envelopeText<T>(command: string, data: T, diagnostics: readonly unknown[]): string {
  const envelope: JsonEnvelope<T> = { command, version: version(), data, diagnostics };
  return jsonText(envelope);
}
