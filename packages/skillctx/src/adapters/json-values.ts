import { decodeToolArguments } from "@skillctx/core/internal";
/**
 * Reading JSON-like values that come from a framework's items for the adapters: tool-call arguments
 * (model output, untrusted) and the content comparison that recognises copies of known items.
 */

/** How deep tool-call arguments from model output may nest before skillctx reads them as text (no real tool needs more). */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Tool-call arguments as skillctx messages carry them: `value` itself, or, when it nests deeper than
 * {@link MAX_ARGUMENT_DEPTH} (model output is untrusted; such a value would overflow the stack of every
 * recursive reader), a short note in its place. The framework still passes the real value to the tool.
 */
export function boundedArguments(value: unknown): unknown {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth >= MAX_ARGUMENT_DEPTH) return `(arguments nested deeper than ${MAX_ARGUMENT_DEPTH} levels)`;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return value;
}

/** Arguments sent as JSON text (OpenAI's form), parsed; text that is not JSON stays text. Bounded like {@link boundedArguments}. */
export function parseArguments(text: unknown): unknown {
  const decoded = decodeToolArguments(text);
  return decoded.ok ? boundedArguments(decoded.value) : text;
}
