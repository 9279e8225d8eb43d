import type { SkillInput } from "@skillctx/core";

/** Values for a task skill's inputs, by input name. */
export type InputValues = Record<string, string | undefined>;

/**
 * Replaces `${name}` placeholders of declared inputs with their values (a value from the
 * callback, else the input's default). Placeholders without a value stay as written.
 * Returns the text and the inputs that are still missing a value.
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
    if (value !== undefined && value !== "") resolved.set(input.name, value);
    else if (input.required !== false) missing.push(input);
  }
  const text = body.replace(/\$\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g, (span, name: string) => resolved.get(name) ?? span);
  return { text, missing };
}
