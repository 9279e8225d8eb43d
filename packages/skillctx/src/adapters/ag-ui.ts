/**
 * A context's events as AG-UI protocol events (`@ag-ui/core` 1.x types; only its types are imported, so
 * the `skillctx/ag-ui` subpath loads nothing of the package at run time).
 *
 * - `tool.called` → `TOOL_CALL_START` + `TOOL_CALL_ARGS` (the arguments as one JSON text);
 *   `tool.finished` → `TOOL_CALL_END` (duration, error and size in `metadata.skillctx`).
 * - The skills' states (`ctx.state.skillStates`, by namespace) are the AG-UI state: `STATE_SNAPSHOT`
 *   sends them whole; `state.delta` → `STATE_DELTA`, its patch moved under `/<namespace>`. A delta for
 *   a namespace the consumer has not seen yet becomes a fresh `STATE_SNAPSHOT`, so a patch never
 *   points into a value the consumer does not have.
 * - Every other event → `CUSTOM` named `skillctx.<type>` (`skillctx.step`, `skillctx.skill.activated`,
 *   ...) with the event's fields as its value.
 */
import type {
  BaseEvent,
  CustomEvent,
  EventType,
  JsonPatchOperation,
  StateDeltaEvent,
  StateSnapshotEvent,
  ToolCallArgsEvent,
  ToolCallEndEvent,
  ToolCallStartEvent,
} from "@ag-ui/core";
import type { Operation } from "fast-json-patch";
import type { SkillctxEvent, SkillctxEventType, StateDeltaEvent as SkillctxStateDelta } from "@skillctx/engine";
import { cloneJson } from "@skillctx/core/internal";

/** The AG-UI events this adapter produces. */
export type AgUiEvent =
  | ToolCallStartEvent
  | ToolCallArgsEvent
  | ToolCallEndEvent
  | StateSnapshotEvent
  | StateDeltaEvent
  | CustomEvent;

/** The part of an `AgentContext` the stream reads. */
export interface AgUiSource {
  /** Registers a listener of every event (`AgentContext.on("*", ...)`); returns the function that removes it. */
  on(type: "*", listener: (event: SkillctxEvent) => void): () => void;
  /** The conversation state (`AgentContext.state`): the snapshot reads the skills' states from it. */
  readonly state: {
    /** Each programmatic skill's state, by namespace. */
    skillStates?: Record<string, unknown> | undefined;
  };
}

/** Options of {@link streamAgUiEvents} and {@link AgUiEventMapper}. */
export interface AgUiOptions {
  /** Send a `STATE_SNAPSHOT` of the skills' states when the stream starts. @default true */
  snapshot?: boolean;
  /**
   * Which other events become `CUSTOM` events: `true` every one, `false` none, or a list of types.
   * @default true
   */
  custom?: boolean | readonly SkillctxEventType[];
  /** Put before every tool call id (`call-1` → `<prefix>call-1`), to keep ids unique across contexts. @default "" */
  toolCallIdPrefix?: string;
  /** The clock of `timestamp` (milliseconds since the epoch). @default Date.now */
  now?: () => number;
}

// The protocol's discriminators. `EventType` is a string enum of @ag-ui/core; its values are these strings,
// written here so that nothing of the package is imported at run time.
const TYPE = {
  TOOL_CALL_START: "TOOL_CALL_START" as EventType.TOOL_CALL_START,
  TOOL_CALL_ARGS: "TOOL_CALL_ARGS" as EventType.TOOL_CALL_ARGS,
  TOOL_CALL_END: "TOOL_CALL_END" as EventType.TOOL_CALL_END,
  STATE_SNAPSHOT: "STATE_SNAPSHOT" as EventType.STATE_SNAPSHOT,
  STATE_DELTA: "STATE_DELTA" as EventType.STATE_DELTA,
  CUSTOM: "CUSTOM" as EventType.CUSTOM,
};

/**
 * Maps skillctx events to AG-UI events, one at a time, remembering which state namespaces the consumer
 * holds (from the last snapshot and the deltas since). `skillStates` reads the current states (for the
 * snapshot a new namespace calls for).
 */
export class AgUiEventMapper {
  private known = new Set<string>();
  private readonly custom: (type: SkillctxEventType) => boolean;
  private readonly now: () => number;
  private readonly prefix: string;

  constructor(
    private readonly skillStates: () => Record<string, unknown>,
    options: AgUiOptions = {},
  ) {
    const custom = options.custom ?? true;
    this.custom = typeof custom === "boolean" ? () => custom : (type) => custom.includes(type);
    this.now = options.now ?? Date.now;
    this.prefix = options.toolCallIdPrefix ?? "";
  }

  /** A `STATE_SNAPSHOT` of every skill state now; the consumer holds these namespaces from here on. */
  snapshot(): StateSnapshotEvent {
    const states = this.skillStates();
    this.known = new Set(Object.keys(states));
    return { type: TYPE.STATE_SNAPSHOT, timestamp: this.now(), snapshot: states };
  }

  /** The AG-UI events for one skillctx event (none for a type `custom` leaves out). */
  map(event: SkillctxEvent): AgUiEvent[] {
    const base = { timestamp: this.now() };
    switch (event.type) {
      case "tool.called": {
        const toolCallId = this.prefix + event.callId;
        return [
          {
            type: TYPE.TOOL_CALL_START,
            ...base,
            toolCallId,
            toolCallName: event.name,
            ...skillctxMetadata({ skill: event.skill, kind: event.kind }),
          },
          { type: TYPE.TOOL_CALL_ARGS, ...base, toolCallId, delta: argumentsText(event.args) },
        ];
      }
      case "tool.finished":
        return [
          {
            type: TYPE.TOOL_CALL_END,
            ...base,
            toolCallId: this.prefix + event.callId,
            ...skillctxMetadata({
              skill: event.skill,
              kind: event.kind,
              durationMs: event.durationMs,
              isError: event.isError,
              error: event.error,
              bytes: event.bytes,
            }),
          },
        ];
      case "state.delta":
        if (!this.known.has(event.namespace)) return [this.snapshot()];
        return [{ type: TYPE.STATE_DELTA, ...base, delta: underNamespace(event) }];
      default:
        if (!this.custom(event.type)) return [];
        return [{ type: TYPE.CUSTOM, ...base, name: `skillctx.${event.type}`, value: jsonValue(withoutType(event)) }];
    }
  }
}

/**
 * Sends a context's events to `send` as AG-UI events, from now until the returned function is called:
 * first a `STATE_SNAPSHOT` of the skills' states (unless `snapshot: false`), then each event as it
 * comes. `send` runs inside the context's listener, synchronously; one that throws is reported as the
 * context's `EVENT_LISTENER_FAILED` diagnostic and never breaks a step.
 *
 * @example
 * const stop = streamAgUiEvents(ctx, (event) => sse.write(`data: ${JSON.stringify(event)}\n\n`));
 */
export function streamAgUiEvents(
  ctx: AgUiSource,
  send: (event: AgUiEvent) => void,
  options: AgUiOptions = {},
): () => void {
  const mapper = new AgUiEventMapper(() => ctx.state.skillStates ?? {}, options);
  if (options.snapshot !== false) send(mapper.snapshot());
  return ctx.on("*", (event) => {
    for (const mapped of mapper.map(event)) send(mapped);
  });
}

/** A `STATE_SNAPSHOT` of a context's skill states (the AG-UI state a stream starts from). */
export function agUiStateSnapshot(
  ctx: Pick<AgUiSource, "state">,
  options: Pick<AgUiOptions, "now"> = {},
): StateSnapshotEvent {
  return new AgUiEventMapper(() => ctx.state.skillStates ?? {}, options).snapshot();
}

// A state patch relative to the namespace's value, made relative to the whole AG-UI state. An operation
// on the namespace's root becomes an `add` (or `remove`) of the namespace's key: RFC 6902 `replace` needs
// the target to exist, `add` sets it either way.
function underNamespace(event: SkillctxStateDelta): JsonPatchOperation[] {
  const root = `/${escapePointer(event.namespace)}`;
  return event.patch.map((operation: Operation): JsonPatchOperation => {
    const path = root + operation.path;
    switch (operation.op) {
      case "add":
      case "replace":
        return { op: operation.path === "" ? "add" : operation.op, path, value: jsonValue(operation.value) };
      case "test":
        return { op: "test", path, value: jsonValue(operation.value) };
      case "remove":
        return { op: "remove", path };
      case "move":
      case "copy":
        return { op: operation.op, from: root + operation.from, path };
      default:
        // `_get` (fast-json-patch's read-only extension) never appears in a delta; carried as a test of nothing.
        return { op: "test", path, value: null };
    }
  });
}

// RFC 6901: "~" is "~0", "/" is "~1".
function escapePointer(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function skillctxMetadata(fields: Record<string, unknown>): Pick<BaseEvent, "metadata"> {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return Object.keys(defined).length === 0 ? {} : { metadata: { skillctx: defined } };
}

function withoutType(event: SkillctxEvent): Record<string, unknown> {
  const { type: _type, ...fields } = event;
  return fields;
}

// The arguments as the JSON text a tool call carries (a string is already one).
function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args ?? {}) ?? "{}";
  } catch {
    return "{}";
  }
}

// A value as it will travel (JSON): undefined fields dropped, no cycles or functions.
function jsonValue(value: unknown): unknown {
  try {
    return cloneJson(value);
  } catch {
    return null;
  }
}
