import { diagnostic } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import { capTextUtf8Bytes } from "@skillctx/core/internal";
import { displayPath } from "./paths.js";

// Below this much room, the file that crosses the cap is left out rather than cut to a stub.
const MIN_CUT_ROOM = 256;

/**
 * Applies Codex's total-size cap to the AGENTS.md chain: the always-on `agents` skills (the user's
 * `~/.codex/AGENTS.md`, then each folder's AGENTS.override.md or AGENTS.md from the root down to cwd),
 * in order. Files are kept whole while the chain fits in `maxBytes`; the file that crosses the cap is
 * cut with a visible note (or left out when too little room is left), later files are left out; one
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
    if (cut === undefined && dropped.length === 0 && left >= MIN_CUT_ROOM) {
      const capped = capTextUtf8Bytes(
        skill.content,
        left,
        (kept, total) =>
          `[skillctx: the AGENTS.md chain is capped at ${maxBytes} bytes (Codex's project_doc_max_bytes); ${label} is cut after ${kept} of its ${total} bytes.]`,
      );
      out.push({ ...skill, content: capped.text, metadata: { ...skill.metadata, truncated: "true" } });
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
