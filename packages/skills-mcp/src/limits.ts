/** Default caps of the skill server (`skillctx serve`, `createSkillServer`); options override them. */

/** Longest URI a request may name, in characters. */
export const MAX_REQUEST_URI_CHARS = 4096;
/** Most bytes of skill entries (as JSON) in one `skills/list` page; a page holds at least one entry. */
export const MAX_LIST_PAGE_BYTES = 1024 * 1024;
/** Longest cursor accepted, in characters: ours are under 60. */
export const MAX_CURSOR_CHARS = 128;
/** Most bytes of text one tool result carries; past it, a note says where to read on. */
export const MAX_SERVED_TOOL_TEXT_BYTES = 65_536;
/** Most open sessions; a new one past it is answered 503. */
export const DEFAULT_MAX_SESSIONS = 1_000;
/** A session idle this long is closed. */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
/**
 * Most bytes of one answer's content (a `resources/read` of one file: its text as UTF-8, or its bytes as
 * base64); a larger file is refused with -32602 rather than turned into a string that big per request.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** Largest request body read, in bytes. */
export const MAX_HTTP_BODY_BYTES = 1024 * 1024;
/** Default `ttlMs` of `skills/list`, and how old the snapshot may get before a request refreshes it. */
export const DEFAULT_SKILLS_TTL_MS = 60_000;
/** Default skills per `skills/list` page. */
export const DEFAULT_SKILLS_PAGE_SIZE = 100;
/** Default resources per `resources/list` / `resources/directory/read` page. */
export const DEFAULT_RESOURCES_PAGE_SIZE = 500;
/** Most bytes of all served files together; skills past it are not served (a warning each). */
export const DEFAULT_MAX_SERVED_BYTES = 256 * 1024 * 1024;
/**
 * After a refusal (413, 431), most further bytes read and dropped so the client can read the refusal
 * before the connection closes (http-teardown.ts).
 */
export const MAX_DISCARDED_BODY_BYTES = 8 * 1024 * 1024;
/** After a refusal, how long the connection waits for the client to finish sending and hang up. */
export const LINGER_MS = 2_000;
/** Largest request head (request line and headers), in bytes; past it the answer is 431. */
export const MAX_HTTP_HEADER_BYTES = 16 * 1024;
/** How long a graceful close waits for requests in flight before it drops their connections. */
export const DEFAULT_DRAIN_MS = 5_000;
/** Longest request path written to the request log, in characters. */
export const MAX_LOGGED_PATH_CHARS = 200;
