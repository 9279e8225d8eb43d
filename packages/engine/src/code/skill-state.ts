/**
 * Per-skill state: the handle a tool call gets (`toolContext.state`), the check when the call ends
 * (JSON, the skill's schema, a size cap), and the RFC 6902 delta from the state before the call to the
 * state after it (fast-json-patch `compare`). Nothing here writes the conversation's state: the caller
 * commits what {@link StateCall.finish} returns through the state store, the one writer.
 */
import type { Diagnostic, Skill } from "@skillctx/core";
import { diagnostic, SkillctxError } from "@skillctx/core";
import type { Operation } from "fast-json-patch";
import { issuesText } from "./tool-input.js";
import { jsonIssue } from "./json-value.js";
import type { SkillStateHandle, SkillStateSpec } from "./skill-code.js";
import { skillRuntimeOf, stateNamespaceOf } from "./skill-code.js";
import { cloneJson, errorText, parseJson } from "@skillctx/core/internal";

/** A state change a call made, checked and ready to commit. */
export interface StateChange {
  namespace: string;
  /** The new state (plain JSON). */
  value: unknown;
  /** RFC 6902 operations from the state before the call to `value`; never empty. */
  patch: Operation[];
}

/** One call's view of its skill's state. */
export interface StateCall {
  /** What the tool gets as `toolContext.state`. */
  readonly handle: SkillStateHandle;
  /**
   * Ends the call: checks a state the tool set (plain JSON, the schema, `maxBytes`) and returns the
   * change to commit (undefined when nothing changed), or why the new state is rejected. Later uses of
   * the handle throw `STATE_HANDLE_CLOSED`.
   */
  finish(): Promise<{ ok: true; change: StateChange | undefined } | { ok: false; message: string }>;
}

/**
 * Opens `skill`'s state for one call, or returns undefined when the skill declares none. `readState`
 * reads the committed state of a namespace (a copy; undefined before the first commit).
 */
export function openState(
  skill: Skill,
  readState: (namespace: string) => unknown,
  maxBytes: number,
): StateCall | undefined {
  const spec = skillRuntimeOf(skill)?.state;
  const namespace = stateNamespaceOf(skill);
  if (spec === undefined || namespace === undefined) return undefined;
  const committed = readState(namespace);
  const before = committed === undefined ? initialStateOf(skill) : committed;
  let current: unknown = before;
  let dirty = false;
  let closed = false;
  const assertOpen = () => {
    if (closed)
      throw new SkillctxError(
        "STATE_HANDLE_CLOSED",
        `the state handle of "${skill.name}" was used after its tool call ended`,
      );
  };
  const handle: SkillStateHandle = {
    get: () => {
      assertOpen();
      return copyOf(current);
    },
    set: (next) => {
      assertOpen();
      current = next;
      dirty = true;
    },
    update: (update) => {
      assertOpen();
      current = update(copyOf(current));
      dirty = true;
    },
  };
  return {
    handle,
    async finish() {
      closed = true;
      if (!dirty) return { ok: true, change: undefined };
      const checked = checkState(spec, current, maxBytes);
      if (!checked.ok)
        return {
          ok: false,
          message: `the new state of "${namespace}" is rejected (the state is unchanged): ${checked.message}`,
        };
      const patch = await jsonPatch(before, checked.value);
      return { ok: true, change: patch.length === 0 ? undefined : { namespace, value: checked.value, patch } };
    },
  };
}

/**
 * The state of `skill` before any call: its `initial`, else the schema's parse of `{}` when that
 * succeeds and is plain JSON, else undefined.
 */
export function initialStateOf(skill: Skill): unknown {
  const spec = skillRuntimeOf(skill)?.state;
  if (spec === undefined) return undefined;
  let memo = initialStates.get(spec);
  if (memo === undefined) {
    memo = { value: computeInitial(spec) };
    initialStates.set(spec, memo);
  }
  return copyOf(memo.value);
}

/**
 * The namespaces of `skills` that declare state, with their initial state, for a context to record
 * the ones it has none for yet. Two skills sharing a namespace share the state: a warning says so.
 */
export function declaredStates(skills: readonly Skill[]): {
  states: { namespace: string; value: unknown }[];
  diagnostics: Diagnostic[];
} {
  const owners = new Map<string, string>();
  const states: { namespace: string; value: unknown }[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const skill of skills) {
    const namespace = stateNamespaceOf(skill);
    if (namespace === undefined) continue;
    const owner = owners.get(namespace);
    if (owner !== undefined) {
      diagnostics.push(
        diagnostic(
          "STATE_NAMESPACE_SHARED",
          "warning",
          `skills "${owner}" and "${skill.name}" use the same state namespace "${namespace}": they share one state`,
        ),
      );
      continue;
    }
    owners.set(namespace, skill.name);
    const value = initialStateOf(skill);
    if (value !== undefined) states.push({ namespace, value });
  }
  return { states, diagnostics };
}

/**
 * Checks a state value against its spec: plain JSON, accepted by the schema (whose output is kept, and
 * must be plain JSON too), at most `maxBytes` as JSON text. Returns the value as it will be stored.
 */
export function checkState(
  spec: SkillStateSpec,
  value: unknown,
  maxBytes: number,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const notJson = jsonIssue(value);
  if (notJson !== undefined) return { ok: false, message: `it is not plain JSON: ${notJson}` };
  let parsed: ReturnType<SkillStateSpec["schema"]["safeParse"]>;
  try {
    parsed = spec.schema.safeParse(value);
  } catch (error) {
    return { ok: false, message: `its schema threw: ${errorText(error)}` };
  }
  if (!parsed.success)
    return { ok: false, message: `it fails the skill's state schema: ${issuesText(parsed.error.issues)}` };
  const outputIssue = jsonIssue(parsed.data);
  if (outputIssue !== undefined) return { ok: false, message: `the schema's output is not plain JSON: ${outputIssue}` };
  const text = JSON.stringify(parsed.data) ?? "null";
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes)
    return {
      ok: false,
      message: `it is ${bytes} bytes as JSON, over the limit of ${maxBytes} (tools.skillTools.maxSkillStateBytes)`,
    };
  return { ok: true, value: parseJson(text) };
}

/** RFC 6902 operations from `before` to `after` (fast-json-patch `compare`; a whole-document operation when either is not a container). */
export async function jsonPatch(before: unknown, after: unknown): Promise<Operation[]> {
  const bothObjects = isPlainObject(before) && isPlainObject(after);
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  if (bothObjects || bothArrays) return (await patchLibrary()).compare(before as object, after as object);
  if (before === undefined) return [{ op: "add", path: "", value: after }];
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ op: "replace", path: "", value: after }];
}

// ---------------------------------------------------------------------------------------------

const initialStates = new WeakMap<SkillStateSpec, { value: unknown }>();

function computeInitial(spec: SkillStateSpec): unknown {
  if (spec.initial !== undefined) return jsonIssue(spec.initial) === undefined ? cloneJson(spec.initial) : undefined;
  try {
    const parsed = spec.schema.safeParse({});
    return parsed.success && parsed.data !== undefined && jsonIssue(parsed.data) === undefined
      ? cloneJson(parsed.data)
      : undefined;
  } catch {
    return undefined;
  }
}

// A copy the tool may change freely; a value that cannot be cloned (the tool set a function) is handed back as is.
function copyOf<T>(value: T): T {
  if (value === undefined || value === null || typeof value !== "object") return value;
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type PatchLibrary = { compare(a: object, b: object): Operation[] };
let patchModule: Promise<PatchLibrary> | undefined;

// fast-json-patch loads on the first state change (a CommonJS module: its functions are on the default export under Node).
function patchLibrary(): Promise<PatchLibrary> {
  patchModule ??= import("fast-json-patch").then((module: object) => {
    const found = [module, "default" in module ? module.default : undefined].find(isPatchLibrary);
    if (found === undefined) throw new Error("fast-json-patch has no compare()");
    return found;
  });
  return patchModule;
}

function isPatchLibrary(value: unknown): value is PatchLibrary {
  return typeof value === "object" && value !== null && "compare" in value && typeof value.compare === "function";
}
