// Test helper (script tools): skill folders with Python scripts, loaded as real skills, and an event sink that records.
import { loadSkills } from "@skillctx/core";
import type { Skill, Trust } from "@skillctx/core";
import type { SkillctxEvent, SkillctxEventType, EventSink } from "../../packages/engine/src/events/types.js";
import { scriptToolsOf } from "../../packages/engine/src/code/script-tools.js";
import type { ScriptToolsContext } from "../../packages/engine/src/code/script-tools.js";
import type { CodeTool } from "../../packages/engine/src/code/skill-code.js";
import { put } from "../../packages/core/src/testing/temp-dir.js";

/** An event sink that keeps every event. */
export function recordingSink(): EventSink & { events: SkillctxEvent[] } {
  const events: SkillctxEvent[] = [];
  return { events, wants: (_type: SkillctxEventType) => true, emit: (event) => void events.push(event) };
}

/** Writes `<root>/<name>/SKILL.md` and `files` (relative to the skill folder), then loads the skill with `scope`. */
export async function scriptSkill(
  root: string,
  name: string,
  files: Record<string, string>,
  scope: "user" | "project" = "user",
): Promise<Skill> {
  await put(
    root,
    `${name}/SKILL.md`,
    `---\nname: ${name}\ndescription: Test skill ${name} with Python scripts.\n---\nUse the scripts.\n`,
  );
  for (const [relative, text] of Object.entries(files)) await put(root, `${name}/${relative}`, text);
  const loaded = await loadSkills([root], { scope });
  const skill = loaded.skills.find((s) => s.name === name);
  if (skill === undefined) throw new Error(`skill ${name} not loaded: ${JSON.stringify(loaded.diagnostics)}`);
  return skill;
}

/** `scriptToolsOf` with a recording sink and trusted user scope by default. */
export async function toolsOf(skill: Skill, options: Partial<ScriptToolsContext> & { trust?: Trust } = {}) {
  const sink = recordingSink();
  const derived = await scriptToolsOf(skill, { trust: undefined, events: sink, ...options });
  return { ...derived, sink, tool: (name: string) => findTool(derived.tools, name) };
}

/** The tool named `name`, or a thrown error listing the names. */
export function findTool(tools: readonly CodeTool[], name: string): CodeTool {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}; have ${tools.map((t) => t.name).join(", ")}`);
  return tool;
}

/** Runs a code tool with a fresh signal. */
export async function call(tool: CodeTool, args: unknown, signal: AbortSignal = new AbortController().signal) {
  const outcome = await tool.run(args, { signal, callId: "call-1", readState: () => undefined });
  return outcome.result;
}
