import type { SkillInput } from "@skillctx/core";
import { findCommands } from "@skillctx/render";

/** Values for a task skill's inputs, by input name. */
export type InputValues = Record<string, string | undefined>;

/** Undeclared `${name}` placeholders asked for, at most (a hostile body may hold thousands). */
export const MAX_UNDECLARED_INPUTS = 20;

/**
 * Replaces `${name}` placeholders of declared inputs with their values (a value from the
 * callback, else the input's default). Placeholders without a value stay as written.
 * Returns the text and the inputs that are still missing a value.
 *
 * Call it on the RENDERED body: values are text from the user and are never run, so a value that
 * contains `` !`cmd` `` stays text. Replacement is one pass: a value's own `${…}` is not replaced.
 */
export function fillInputs(
  body: string,
  inputs: readonly SkillInput[],
  values: InputValues,
): { text: string; missing: SkillInput[] } {
  const resolved = new Map<string, string>();
  const missing: SkillInput[] = [];
  for (const input of inputs) {
    const value = values[input.name] ?? input.default;
    if (typeof value === "string" && value !== "") resolved.set(input.name, value);
    else if (input.required !== false) missing.push(input);
  }
  const text =
    resolved.size === 0
      ? body
      : body.replace(/\$\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g, (span, name: string) => resolved.get(name) ?? span);
  return { text, missing };
}

/**
 * `${name}` placeholders of a task skill's source that are not declared inputs: as in OpenHands, the
 * model is asked to get them from the user too. Placeholders inside `` !`cmd` `` spans are shell
 * variables, not inputs, and are left out. In order of first use, at most {@link MAX_UNDECLARED_INPUTS}.
 */
export function undeclaredInputs(source: string, inputs: readonly SkillInput[]): SkillInput[] {
  if (!source.includes("${")) return [];
  const declared = new Set(inputs.map((input) => input.name));
  const found = new Map<string, SkillInput>();
  const commands = source.includes("!`") ? findCommands(source) : [];
  let next = 0;
  for (const match of source.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const at = match.index;
    while (next < commands.length && commands[next]!.end <= at) next++;
    const inCommand = next < commands.length && commands[next]!.start <= at;
    const name = match[1]!;
    if (inCommand || declared.has(name) || found.has(name)) continue;
    found.set(name, { name, description: "" });
    if (found.size >= MAX_UNDECLARED_INPUTS) break;
  }
  return [...found.values()];
}
