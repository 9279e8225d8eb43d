const MARKER = Symbol.for("skillctx.error");

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
 * The one error class of skillctx. `code` is a stable string such as
 * `NAME_DIR_MISMATCH`, `RESOURCE_OUTSIDE_SKILL` or `COMMAND_TIMEOUT`.
 */
export class SkillctxError extends Error {
  override readonly name = "SkillctxError";
  readonly code: string;
  readonly path?: string;
  readonly line?: number;
  readonly data?: Record<string, unknown>;
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: isInstance reads it with `MARKER in value` (works across copies of the package).
  private readonly [MARKER] = true;

  constructor(code: string, message: string, options: SkillctxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.path !== undefined) this.path = options.path;
    if (options.line !== undefined) this.line = options.line;
    if (options.data !== undefined) this.data = options.data;
  }

  /** True for any SkillctxError, even one created by another copy of this package. */
  static isInstance(value: unknown): value is SkillctxError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
