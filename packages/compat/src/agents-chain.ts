import { diagnostic } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import { StringDecoder } from "node:string_decoder";
import { displayPath } from "./paths.js";

/**
 * Applies Codex's total-size cap to the AGENTS.md chain: the always-on `agents` skills (the user's
 * `~/.codex/AGENTS.md`, then each folder's AGENTS.override.md or AGENTS.md from the root down to cwd),
 * in order. Files are kept whole while the chain fits in `maxBytes`; the file that crosses the cap keeps
 * the bytes that fit, however few (at a character boundary), followed by a visible note that is not
 * counted, as Codex keeps them (openai/codex codex-rs/core/src/project_doc.rs, `read_project_docs`: it
 * reads each file up to the remaining budget and warns "exceeds remaining budget - truncating");
 * later files are left out; one
 * `AGENTS_MD_CAP` warning says what happened. Other guidance is not counted. Returns the skills in the
 * same order, without the ones left out.
 */
export function capAgentsChain(
  skills: readonly Skill[],
  maxBytes: number,
  root: string,
  diagnostics: Diagnostic[],
): Skill[] {
  let left = Math.max(0, Math.floor(maxBytes));
  const dropped: string[] = [];
  let cut: string | undefined;
  const out: Skill[] = [];
  for (const skill of skills) {
    if (skill.metadata["kind"] !== "agents" || skill.trigger.type !== "always") {
      out.push(skill);
      continue;
    }
    const label = displayPath(skill.source.path ?? skill.name, root);
    const size = Buffer.byteLength(skill.content);
    if (size <= left) {
      left -= size;
      out.push(skill);
      continue;
    }
    if (cut === undefined && dropped.length === 0 && left > 0) {
      // The first `left` bytes; a character cut in two is held back by the decoder, not half-written.
      const head = new StringDecoder("utf8").write(Buffer.from(skill.content).subarray(0, left));
      const kept = Buffer.byteLength(head);
      const separator = head === "" || head.endsWith("\n") ? "" : "\n";
      const note = `[skillctx: the AGENTS.md chain is capped at ${maxBytes} bytes (Codex's project_doc_max_bytes); ${label} is cut after ${kept} of its ${size} bytes.]`;
      out.push({
        ...skill,
        content: `${head}${separator}${note}`,
        metadata: { ...skill.metadata, truncated: "true" },
      });
      cut = label;
      left = 0;
      continue;
    }
    left = 0;
    dropped.push(label);
  }
  if (cut !== undefined || dropped.length > 0) {
    const parts = [
      ...(cut === undefined ? [] : [`${cut} was cut`]),
      ...(dropped.length === 0
        ? []
        : [
            `left out: ${dropped.slice(0, 10).join(", ")}${dropped.length > 10 ? ` and ${dropped.length - 10} more` : ""}`,
          ]),
    ];
    diagnostics.push(
      diagnostic(
        "AGENTS_MD_CAP",
        "warning",
        `the AGENTS.md chain is over projectDocMaxBytes (${maxBytes} bytes, as Codex caps it): ${parts.join("; ")}`,
      ),
    );
  }
  return out;
}
