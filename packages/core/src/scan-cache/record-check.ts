/**
 * The shape check of a persisted scan record: the fields of a `Skill` (with an empty body), of a
 * `Diagnostic` and of a stopped parse, checked by hand rather than through the zod schemas (`skill.ts`,
 * `diagnostics.ts`). Loading zod costs about 140 ms of CPU, several times what a whole scan served from
 * the cache costs, and the cache exists to make that scan cheap (docs/decisions.md, issue 36).
 * `record-check.test.ts` holds this check to the zod schemas: every skill of the fixtures passes both,
 * and every mutation the zod schemas refuse is refused here.
 *
 * Stricter than the schemas in two ways, each making a hostile file fail rather than pass: unknown keys
 * are refused in a skill, its source and a diagnostic; and a record's body must be empty (the scan never
 * keeps one). A `__proto__` key anywhere is refused before this check, on the file's text (persistent-scan.ts).
 */
import { DIAGNOSTIC_CODES } from "../diagnostic-codes.js";
import { SKILLCTX_ERROR_CODES } from "../errors.js";

type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === "string";
const isNonEmpty: Check = (v) => typeof v === "string" && v.length > 0;
const isBoolean: Check = (v) => typeof v === "boolean";
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const arrayOf =
  (item: Check, min = 0): Check =>
  (v) =>
    Array.isArray(v) && v.length >= min && v.every(item);
const oneOf = (...values: readonly string[]): Check => {
  const allowed = new Set(values);
  return (v) => typeof v === "string" && allowed.has(v);
};
const recordOf =
  (item: Check): Check =>
  (v) =>
    isRecord(v) && Object.values(v).every(item);

/** An object with exactly these keys (those marked optional may be absent, never `undefined`). */
function shape(fields: Record<string, Check>, optional: readonly string[]): Check {
  // Worked out once: the check runs on every record of a cache file (1,000 skills, 1,000 records), mostly
  // before V8 compiles it, so it does little per key: one lookup, and a count of the required keys met.
  const checks = new Map(Object.entries(fields));
  const required = new Set(Object.keys(fields).filter((key) => !optional.includes(key)));
  const requiredCount = required.size;
  return (v) => {
    if (!isRecord(v)) return false;
    let met = 0;
    for (const key in v) {
      if (!Object.hasOwn(v, key)) return false;
      const check = checks.get(key);
      if (check === undefined || !check(v[key])) return false;
      if (required.has(key)) met++;
    }
    return met === requiredCount;
  };
}

const isInput = shape({ name: isNonEmpty, description: isString, required: isBoolean, default: isString }, [
  "required",
  "default",
]);
// One check per trigger type, made once (not per record).
const TRIGGER_SHAPES: Record<string, Check> = {
  always: shape({ type: isString }, []),
  "on-demand": shape({ type: isString }, []),
  keyword: shape({ type: isString, keywords: arrayOf(isNonEmpty, 1) }, []),
  task: shape({ type: isString, keywords: arrayOf(isNonEmpty, 1), inputs: arrayOf(isInput) }, []),
  path: shape({ type: isString, globs: arrayOf(isNonEmpty, 1), base: isNonEmpty }, ["base"]),
  command: shape({ type: isString, prefix: oneOf("/", "@") }, []),
};
const isTrigger: Check = (v) => {
  if (!isRecord(v)) return false;
  const type = v["type"];
  const check = typeof type === "string" && Object.hasOwn(TRIGGER_SHAPES, type) ? TRIGGER_SHAPES[type] : undefined;
  return check?.(v) === true;
};
const isScope = oneOf("project", "user", "programmatic", "remote");
const isSource = shape(
  {
    kind: oneOf("file", "inline", "compat"),
    path: isString,
    format: oneOf("skill-md", "legacy", "guidance", "cursor-mdc", "copilot-instructions", "command", "inline"),
    scope: isScope,
    origin: isString,
  },
  ["path", "origin"],
);
const SKILL_FIELDS: Record<string, Check> = {
  name: isNonEmpty,
  description: isString,
  content: (v) => v === "",
  source: isSource,
  dir: isString,
  trigger: isTrigger,
  inputs: arrayOf(isInput),
  allowedTools: arrayOf(isString),
  resources: arrayOf(isString),
  mcpServers: isRecord,
  license: isString,
  compatibility: isString,
  metadata: recordOf(isString),
  disableModelInvocation: isBoolean,
  userInvocable: isBoolean,
  argumentHint: isString,
  argumentNames: arrayOf(isString),
  whenToUse: isString,
  model: isString,
  effort: isString,
  context: isString,
  agent: isString,
  extra: isRecord,
};
const REQUIRED_SKILL_FIELDS = ["name", "content", "source", "trigger", "metadata"];
const isSkillShape = shape(
  SKILL_FIELDS,
  Object.keys(SKILL_FIELDS).filter((k) => !REQUIRED_SKILL_FIELDS.includes(k)),
);

/** A skill as a scan keeps it: every field of the Skill schema well typed, its body empty. */
export function isScannedSkillMeta(value: unknown): boolean {
  return isSkillShape(value);
}

const isLine: Check = (v) => typeof v === "number" && Number.isInteger(v) && v > 0;
const isDiagnosticShape = shape(
  {
    code: oneOf(...DIAGNOSTIC_CODES, ...SKILLCTX_ERROR_CODES),
    severity: oneOf("error", "warning", "info"),
    message: isString,
    path: isString,
    line: isLine,
    dialect: oneOf("claude-code", "codex", "openhands", "skillctx"),
  },
  ["path", "line", "dialect"],
);

/** A diagnostic of a known code. */
export function isDiagnosticRecord(value: unknown): boolean {
  return isDiagnosticShape(value);
}

/** A parse that stopped: the error's code, message and where. */
export const isErrorRecord: Check = shape(
  { code: oneOf(...SKILLCTX_ERROR_CODES), message: isString, path: isString, line: isLine },
  ["path", "line"],
);
