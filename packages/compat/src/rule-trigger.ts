import { diagnostic } from "@skillctx/core";
import type { Diagnostic, Trigger } from "@skillctx/core";
import type { Placement } from "./candidate.js";
import { compileGlob, folderGlob, limitGlobList, normalizeGlob, relocateGlob } from "@skillctx/core/internal";
import type { RuleHeader, RuleFormat } from "./rule-header.js";

/** How a rule is activated, in Cursor's words. */
export type Activation = "always" | "auto-attached" | "agent-requested" | "manual";

/** The trigger of a rule, or why it does not apply below cwd. */
export type RuleTrigger =
  | { ok: true; activation: Activation; trigger: Trigger; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

const MANUAL: Trigger = { type: "command", prefix: "@" };
const WINDSURF_TRIGGERS = new Set(["always_on", "manual", "model_decision", "glob"]);

/**
 * Maps a rule's header to a trigger, relative to cwd:
 * - `alwaysApply: true` (Cursor), Copilot `applyTo: "**"`, a Claude Code rule without `paths`, or
 *   Windsurf `trigger: always_on` → `always` (below cwd: a path rule for its folder);
 * - globs / applyTo / paths (Windsurf `trigger: glob`) → `path`, the globs moved from the rule's folder to cwd;
 *   when none of them reaches below cwd (a sibling package's rule) and `levelDir` is given, the globs
 *   stay as written with `base: levelDir`;
 * - only a description (Windsurf `trigger: model_decision`) → `on-demand` (listed in the catalog);
 * - none of them, a broken header, or Windsurf `trigger: manual` → a `command` the user mentions as
 *   `@<name>` (Cursor's and Windsurf's manual rules): never listed, never loaded by the model.
 * A Windsurf rule without `trigger` is read from what it has (globs, then description), else always on.
 */
export function ruleTrigger(
  header: RuleHeader,
  options: { format: RuleFormat; place: Placement; file: string; levelDir?: string | undefined },
): RuleTrigger {
  const diagnostics: Diagnostic[] = [];
  const { place } = options;
  if (options.format === "windsurf-rule" && header.trigger !== undefined && !WINDSURF_TRIGGERS.has(header.trigger)) {
    diagnostics.push(
      diagnostic(
        "RULE_FIELD_INVALID",
        "warning",
        `trigger ${JSON.stringify(preview(header.trigger))} is not always_on, manual, model_decision or glob; read from the rule's other fields`,
        {
          path: options.file,
        },
      ),
    );
  }
  const windsurf =
    options.format === "windsurf-rule" && WINDSURF_TRIGGERS.has(header.trigger ?? "") ? header.trigger : undefined;
  if (!header.broken && windsurf === "manual") return { ok: true, activation: "manual", trigger: MANUAL, diagnostics };
  if (!header.broken && windsurf === "model_decision") {
    return { ok: true, activation: "agent-requested", trigger: { type: "on-demand" }, diagnostics };
  }
  const everywhere =
    options.format === "cursor-mdc"
      ? header.alwaysApply
      : options.format === "claude-rule"
        ? header.globs.length === 0
        : options.format === "windsurf-rule"
          ? windsurf === "always_on" ||
            (windsurf === undefined && header.globs.length === 0 && header.description === undefined)
          : header.globs.length > 0 && header.globs.every((g) => ["**", "**/*"].includes(g.trim()));
  if (!header.broken && everywhere) {
    if (place.type === "level") return { ok: true, activation: "always", trigger: { type: "always" }, diagnostics };
    return { ok: true, activation: "always", trigger: { type: "path", globs: [folderGlob(place.down)] }, diagnostics };
  }

  if (!header.broken && header.globs.length > 0) {
    const globOptions = { path: options.file, source: "this rule" };
    const listed = limitGlobList(header.globs, globOptions);
    diagnostics.push(...listed.diagnostics);
    const usable: string[] = [];
    for (const written of listed.globs) {
      const normal = normalizeGlob(written);
      if ("problem" in normal) {
        diagnostics.push(
          diagnostic(
            "RULE_GLOB_UNSUPPORTED",
            "warning",
            `glob ${JSON.stringify(preview(written))} is ${PROBLEMS[normal.problem]}; ignored`,
            { path: options.file },
          ),
        );
        continue;
      }
      const compiled = compileGlob(written, globOptions);
      if (!compiled.ok) {
        diagnostics.push(compiled.diagnostic);
        continue;
      }
      usable.push(normal.glob);
    }
    if (usable.length > 0) {
      const where = place.type === "level" ? { up: place.up } : { down: place.down };
      const relocated = new Set(usable.flatMap((g) => relocateGlob(g, where)));
      if (relocated.size === 0 && place.type === "level" && options.levelDir !== undefined) {
        // Every glob names files beside cwd, not below it (a root rule for a sibling package): the agent
        // can still edit those, so the rule stays a path rule, matched from its own folder.
        return {
          ok: true,
          activation: "auto-attached",
          trigger: { type: "path", globs: usable, base: options.levelDir },
          diagnostics,
        };
      }
      if (relocated.size === 0) {
        diagnostics.push(
          diagnostic(
            "RULE_OUT_OF_SCOPE",
            "warning",
            `rule applies only to files outside cwd (${preview(header.globs.slice(0, 10).join(", "))}); not loaded`,
            { path: options.file },
          ),
        );
        return { ok: false, diagnostics };
      }
      const moved: string[] = [];
      for (const glob of relocated) {
        // A folder prefix can take a glob past the length cap.
        const compiled = compileGlob(glob, globOptions);
        if (compiled.ok) moved.push(glob);
        else diagnostics.push(compiled.diagnostic);
      }
      if (moved.length > 0)
        return { ok: true, activation: "auto-attached", trigger: { type: "path", globs: moved }, diagnostics };
    }
  }

  if (!header.broken && header.description !== undefined) {
    return { ok: true, activation: "agent-requested", trigger: { type: "on-demand" }, diagnostics };
  }
  return { ok: true, activation: "manual", trigger: MANUAL, diagnostics };
}

// At most 80 characters of what a rule wrote go into a message.
const preview = (text: string): string => (text.length <= 80 ? text : `${text.slice(0, 77)}...`);

const PROBLEMS: Record<string, string> = {
  negated: "a negation, which a rule cannot express",
  parent: "outside the rule's folder (..)",
  empty: "empty",
};
