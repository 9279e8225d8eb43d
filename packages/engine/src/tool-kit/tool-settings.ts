// The settings of the skill tools and the code tools (a leaf both tools/ and code/ import).

/** Limits of the skill tools (`tools.skillTools` option of `AgentContext.create`). */
export interface SkillToolSettings {
  /** Most UTF-8 bytes one `read_skill_resource` call returns; longer files are cut with a note. @default 65536 */
  maxResourceBytes?: number;
  /** Most files listed after a loaded skill's body; the rest are counted. @default 50 */
  maxListedFiles?: number;
  /** Most UTF-8 bytes of one code tool's result (a `defineSkill` tool, a typed script tool); longer results are cut with a note. @default 102400 */
  maxCodeToolResultBytes?: number;
  /** Most UTF-8 bytes of one skill's state as JSON; a tool call that would make it larger is rejected with an error result. @default 1048576 */
  maxSkillStateBytes?: number;
  /** How `run_skill_script` runs scripts. */
  scripts?: {
    /** Per run; the script's process group is killed after it. @default 30000 */
    timeoutMs?: number;
    /** Bytes of stdout (and of stderr) kept; the script is stopped past it. @default 51200 */
    maxOutputBytes?: number;
    /** Extra environment; wins over the inherited allowlist (PATH, HOME, LANG, ...). */
    env?: Record<string, string>;
  };
}

/** How the active skill's `allowed-tools` applies: drop other tools from the list, refuse their calls, or ignore it. */
export type ToolFilterMode = "filter" | "refuse" | "off";
