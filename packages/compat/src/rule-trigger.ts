import { diagnostic } from "@skillctx/core";
import type { Diagnostic, Trigger } from "@skillctx/core";
import type { Placement } from "./candidates.js";
import { folderGlob, normalizeGlob, relocateGlob } from "./globs.js";
import type { RuleHeader, RuleFormat } from "./rule-header.js";

/** How a rule is activated, in Cursor's words. */
export type Activation = "always" | "auto-attached" | "agent-requested" | "manual";

/** The trigger of a rule, or why it does not apply below cwd. */
export type RuleTrigger =
  | { ok: true; activation: Activation; trigger: Trigger; disableModelInvocation?: true; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/**
 * Maps a rule's header to a trigger, relative to cwd:
 * - `alwaysApply: true` (Cursor), or Copilot `applyTo: "**"` → `always` (below cwd: a path rule for its folder);
 * - globs / applyTo → `path`, the globs moved from the rule's folder to cwd;
 * - only a description → `on-demand` (listed in the catalog);
 * - none of them, or a broken header → `on-demand` with `disableModelInvocation` (loadable by name only).
 */
export function ruleTrigger(header: RuleHeader, options: { format: RuleFormat; place: Placement; file: string }): RuleTrigger {
  const diagnostics: Diagnostic[] = [];
  const { place } = options;
  const everywhere =
    options.format === "cursor-mdc"
      ? header.alwaysApply
      : header.globs.length > 0 && header.globs.every((g) => ["**", "**/*"].includes(g.trim()));
  if (!header.broken && everywhere) {
    if (place.type === "level") return { ok: true, activation: "always", trigger: { type: "always" }, diagnostics };
    return { ok: true, activation: "always", trigger: { type: "path", globs: [folderGlob(place.down)] }, diagnostics };
  }

  if (!header.broken && header.globs.length > 0) {
    const usable: string[] = [];
    for (const written of header.globs) {
      const normal = normalizeGlob(written);
      if ("problem" in normal) {
        diagnostics.push(
          diagnostic("RULE_GLOB_UNSUPPORTED", "warning", `glob "${written}" is ${PROBLEMS[normal.problem]}; ignored`, { path: options.file }),
        );
        continue;
      }
      usable.push(normal.glob);
    }
    if (usable.length > 0) {
      const moved = [
        ...new Set(usable.flatMap((g) => relocateGlob(g, place.type === "level" ? { up: place.up } : { down: place.down }))),
      ];
      if (moved.length === 0) {
        diagnostics.push(
          diagnostic(
            "RULE_OUT_OF_SCOPE",
            "warning",
            `rule applies only to files outside cwd (${header.globs.join(", ")}); not loaded`,
            { path: options.file },
          ),
        );
        return { ok: false, diagnostics };
      }
      return { ok: true, activation: "auto-attached", trigger: { type: "path", globs: moved }, diagnostics };
    }
  }

  if (!header.broken && header.description !== undefined) {
    return { ok: true, activation: "agent-requested", trigger: { type: "on-demand" }, diagnostics };
  }
  return { ok: true, activation: "manual", trigger: { type: "on-demand" }, disableModelInvocation: true, diagnostics };
}

const PROBLEMS: Record<string, string> = {
  negated: "a negation, which a rule cannot express",
  parent: "outside the rule's folder (..)",
  empty: "empty",
};
