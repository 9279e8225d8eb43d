import { SkillctxError } from "@skillctx/core";
import type { ContentPart, Message, TextPart } from "@skillctx/engine";
import { errorText as thrownText } from "@skillctx/core/internal";

/**
 * What the OpenAI and Anthropic adapters share: where a converted message came from, and the typed
 * errors for input that is not the framework's message shape.
 */

/**
 * Where a skillctx message made by an adapter's `from*` converter came from: the framework's own
 * message (or input item) and which part of it. The request builders use it to send the host's object
 * itself, or a copy of it with the step's attachments, instead of converting back.
 */
export interface Origin<H> {
  /** Which converter made it, so one adapter never sends another's objects. */
  readonly format: HostFormat;
  /** The framework's message or item. */
  readonly host: H;
  /**
   * Which part of `host`: 0 for a one-to-one conversion; for an Anthropic user message, the index of
   * the `tool_result` block, or -1 for its other blocks.
   */
  readonly slot: number;
}

/** The message formats whose converters record origins. */
export type HostFormat = "openai-chat" | "openai-responses" | "anthropic";

// Keyed by the converted message and by its first content part. The engine hands back the message
// itself when it attached nothing, and otherwise a copy that keeps the same part objects with its texts
// appended (`withAppendedText`), so the first part still leads to the origin. Converters therefore give
// every user and tool message at least one part, made fresh for it.
const origins = new WeakMap<object, Origin<unknown>>();

/** Records where `message` came from (by the message and by its first content part); returns `message`. */
export function withOrigin<H>(message: Message, origin: Origin<H>): Message {
  origins.set(message, origin);
  const first = typeof message.content === "string" ? undefined : message.content[0];
  if (first !== undefined) origins.set(first, origin);
  return message;
}

/**
 * The origin of a message of `step.messages` in `format`: found for the converted message itself and
 * for the engine's copy of it that carries attachments. Undefined for a message made otherwise.
 */
export function originOf<H>(message: Message, format: HostFormat): Origin<H> | undefined {
  let origin = origins.get(message);
  if (origin === undefined && typeof message.content !== "string" && message.content[0] !== undefined) {
    origin = origins.get(message.content[0]);
  }
  return origin?.format === format ? (origin as Origin<H>) : undefined;
}

/** The origin of `message` when it is itself a converted message (not a copy that carries attachments). */
export function ownOrigin<H>(message: Message, format: HostFormat): Origin<H> | undefined {
  const origin = origins.get(message);
  return origin?.format === format ? (origin as Origin<H>) : undefined;
}

/** A fresh text part (each converted message owns its first part; see {@link withOrigin}). */
export function textPart(text: string): TextPart {
  return { type: "text", text };
}

/** `parts`, or one empty text part when there are none, so the message has a first part of its own. */
export function atLeastOnePart(parts: ContentPart[]): ContentPart[] {
  return parts.length === 0 ? [textPart("")] : parts;
}

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Thrown by a `from*` converter for input that is not the framework's message shape. */
export class InvalidMessage extends Error {
  constructor(
    readonly index: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/**
 * Runs a `from*` conversion and turns anything it throws into a `SkillctxError` of code
 * `MESSAGES_INVALID` naming the converter, the message index and the field (a getter that throws or a
 * revoked proxy included), so hostile input never surfaces as a bare `TypeError`.
 */
export function convertMessages<T>(converter: string, input: unknown, convert: (list: readonly unknown[]) => T): T {
  if (!Array.isArray(input)) {
    throw new SkillctxError("MESSAGES_INVALID", `${converter}: expected an array of messages; got ${describe(input)}`);
  }
  try {
    return convert(input);
  } catch (error) {
    if (SkillctxError.isInstance(error)) throw error;
    if (error instanceof InvalidMessage) {
      throw new SkillctxError("MESSAGES_INVALID", `${converter}: messages[${error.index}]${error.problem}`, {
        data: { index: error.index },
      });
    }
    throw new SkillctxError("MESSAGES_INVALID", `${converter}: the messages cannot be read: ${thrownText(error)}`, {
      cause: error,
    });
  }
}

/**
 * Checks a list of tool calls before any runs: an array of objects, each with a string id (`idKey`).
 *
 * @throws SkillctxError `TOOL_CALLS_INVALID` naming the first bad entry; nothing has run.
 */
export function checkToolCalls(
  runner: string,
  calls: unknown,
  isCall: (entry: Record<string, unknown>) => boolean,
  idKey: string,
): readonly Record<string, unknown>[] {
  if (!Array.isArray(calls))
    throw new SkillctxError("TOOL_CALLS_INVALID", `${runner}: expected an array; got ${describe(calls)}`);
  calls.forEach((entry: unknown, index) => {
    if (!isRecord(entry))
      throw new SkillctxError("TOOL_CALLS_INVALID", `${runner}: entry ${index} is ${describe(entry)}, not an object`, {
        data: { index },
      });
    if (isCall(entry) && typeof entry[idKey] !== "string") {
      throw new SkillctxError(
        "TOOL_CALLS_INVALID",
        `${runner}: entry ${index} has no string ${idKey}, so no result could answer it`,
        { data: { index } },
      );
    }
  });
  return calls as Record<string, unknown>[];
}

/** The text a tool result shows the model when it failed: a leading `Error:` unless it says so already. */
export function errorText(content: string): string {
  return /^error\b/i.test(content) ? content : `Error: ${content}`;
}

/** The answer to a second call that reuses an id: it is not run. */
export function duplicateIdText(id: string): string {
  return `Error: another tool call of this message has the id ${JSON.stringify(id)}; only the first one ran, this one did not.`;
}

/** What kind of value this is, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

/** The value for `key` in `map`, made by `make` the first time. */
export function cached<K extends object, V>(map: WeakMap<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}
