// A registered symbol, so that isInstance also knows an error thrown by another copy of @skillctx/core in
// the same process (two versions installed side by side); the pattern of the AI SDK's `AISDKError.isInstance`.
const MARKER = Symbol.for("skillctx.error");

/**
 * Every `code` a {@link SkillctxError} can carry, the single list the type {@link SkillctxErrorCode} comes
 * from; docs/errors.md gives each one's meaning (test/error-codes.test.ts keeps the two and the sources in
 * step). A host can switch on `error.code` over this union.
 */
export const SKILLCTX_ERROR_CODES = [
  "BINARY",
  "CONTEXT_CLOSED",
  "FRONTMATTER_TOO_LARGE",
  "FRONTMATTER_UNCLOSED",
  "INVALID_ARGUMENTS",
  "INVALID_CATALOG_OPTIONS",
  "INVALID_OPTIONS",
  "INVALID_RENDER_OPTIONS",
  "JSON_INVALID",
  "MCP_BRIDGE_CLOSED",
  "MCP_SDK_MISSING",
  "MCP_SERVER_START_FAILED",
  "MCP_SERVER_START_TIMEOUT",
  "MCP_SKILLS_LIST_FAILED",
  "MCP_SKILLS_UNSUPPORTED",
  "MCP_SKILL_REFUSED",
  "MESSAGES_INVALID",
  "NAME_MISSING",
  "NOT_A_FILE",
  "NOT_UTF8",
  "PATH_NOT_FOUND",
  "PATH_OUTSIDE_ROOT",
  "READ_FAILED",
  "SERVER_CLOSED",
  "SKILL_DEFINITION_INVALID",
  "SKILL_INVALID",
  "SKILL_NOT_FOUND",
  "SKILL_NOT_INVOCABLE",
  "SKILL_READ_FAILED",
  "STATE_HANDLE_CLOSED",
  "STATE_INVALID",
  "TOKENIZER_MISSING",
  "TOOL_CALLS_INVALID",
  "TOO_LARGE",
  "YAML_INVALID",
  "ZOD_VERSION_UNSUPPORTED",
] as const;

/** The `code` of a {@link SkillctxError}: one of `SKILLCTX_ERROR_CODES` (`@skillctx/core`). */
export type SkillctxErrorCode = (typeof SKILLCTX_ERROR_CODES)[number];

const ERROR_CODES: ReadonlySet<string> = new Set(SKILLCTX_ERROR_CODES);

/** Whether `code` is a {@link SkillctxErrorCode} (for a code that comes from a diagnostic or a reader). */
export function isSkillctxErrorCode(code: string): code is SkillctxErrorCode {
  return ERROR_CODES.has(code);
}

/** `code` when it is an error code (a diagnostic's, to rethrow it as an error), else `fallback`. */
export function errorCodeOf(code: string | undefined, fallback: SkillctxErrorCode): SkillctxErrorCode {
  return code !== undefined && isSkillctxErrorCode(code) ? code : fallback;
}

/** Options for {@link SkillctxError}. */
export interface SkillctxErrorOptions {
  /** File the error is about, when there is one. */
  path?: string;
  /** 1-based line in `path`, when known. */
  line?: number;
  /** The underlying error. */
  cause?: unknown;
  /** Extra structured data for callers (never needed to understand the message). */
  data?: Record<string, unknown>;
}

/**
 * The one error class of skillctx. `code` is one of {@link SkillctxErrorCode} (listed with their meanings in
 * docs/errors.md). Recognise it with {@link SkillctxError.isInstance}, not `instanceof` or `name`.
 *
 * @example
 * ```ts
 * try {
 *   await ctx.step(messages);
 * } catch (error) {
 *   if (SkillctxError.isInstance(error) && error.code === "CONTEXT_CLOSED") return;
 *   throw error;
 * }
 * ```
 */
export class SkillctxError extends Error {
  override readonly name = "SkillctxError";
  readonly code: SkillctxErrorCode;
  readonly path?: string;
  readonly line?: number;
  readonly data?: Record<string, unknown>;
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: isInstance reads it with `MARKER in value` (works across copies of the package).
  private readonly [MARKER] = true;

  constructor(code: SkillctxErrorCode, message: string, options: SkillctxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.path !== undefined) this.path = options.path;
    if (options.line !== undefined) this.line = options.line;
    if (options.data !== undefined) this.data = options.data;
  }

  /**
   * The one way to recognise a SkillctxError: true for any, even one created by another copy of this
   * package (it checks a `Symbol.for` marker, not the prototype chain).
   */
  static isInstance(value: unknown): value is SkillctxError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
