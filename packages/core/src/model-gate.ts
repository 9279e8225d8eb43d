/** Model families that skillctx recognises in a model id. */
export type ModelFamily = "anthropic" | "gemini" | "openai" | "other-known";

// Checked in order; the first family whose pattern matches the model id wins.
const FAMILIES: ReadonlyArray<[ModelFamily, RegExp]> = [
  ["anthropic", /(^|[/:.])anthropic|claude/i],
  ["gemini", /gemini|(^|[/:])google[/:]/i],
  ["openai", /(^|[/:])(openai[/:]|gpt-|chatgpt|o[1-9](-|$)|codex)/i],
  ["other-known", /llama|mistral|mixtral|qwen|deepseek|grok|command-r|phi-|gemma|kimi|glm/i],
];

/** The family of a model id such as `claude-sonnet-4`, `openai/gpt-4o` or `gemini-2.5-pro`; undefined when unknown. */
export function modelFamily(model: string | undefined): ModelFamily | undefined {
  if (model === undefined || model.trim() === "") return undefined;
  return FAMILIES.find(([, pattern]) => pattern.test(model))?.[0];
}

// Guidance written for one model family, by skill name.
const FAMILY_GUIDANCE: Readonly<Record<string, ModelFamily>> = {
  claude: "anthropic",
  // Claude Code's other memory files: .claude/CLAUDE.md, CLAUDE.local.md, .claude/rules.
  "claude-dir": "anthropic",
  "claude-local": "anthropic",
  "claude-rules": "anthropic",
  gemini: "gemini",
};

/**
 * Whether guidance named `skillName` applies to `model`: a skill named `claude` is kept only for
 * Anthropic/Claude models, `gemini` only for Gemini models; an unknown or absent model keeps everything.
 */
export function keepForModel(skillName: string, model: string | undefined): boolean {
  // `claude:packages/api` (guidance of a sub-folder) is gated like `claude`.
  const base = skillName.split(":")[0]!.toLowerCase();
  const wanted = FAMILY_GUIDANCE[base];
  if (wanted === undefined) return true;
  const family = modelFamily(model);
  return family === undefined || family === wanted;
}
