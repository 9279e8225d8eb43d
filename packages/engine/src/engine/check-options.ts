/**
 * The checks of `AgentContext.create`'s options that run before anything is read: the top-level names,
 * the groups' shapes, the invocation options and the persistent cache's folder. The option types are in
 * options.ts; checks of single options that the parts make as they start are beside those parts.
 */
import * as path from "node:path";
import { invalidOption, isWholeNumberAtLeast } from "@skillctx/core/internal";
import { SkillctxError } from "@skillctx/core";
import type { AgentContextOptions, ConversationOptions } from "./options.js";

/** The top-level options, each `true`: the type keeps the list complete. */
const OPTION_NAMES: Record<keyof AgentContextOptions, true> = {
  cwd: true,
  skills: true,
  systemPrompt: true,
  model: true,
  signal: true,
  sources: true,
  guidance: true,
  catalog: true,
  tools: true,
  trust: true,
  mcp: true,
  subAgents: true,
  conversation: true,
  telemetry: true,
};

/** The option groups: each an object when given. */
const GROUPS = ["sources", "catalog", "tools", "subAgents", "conversation", "telemetry"] as const;

/**
 * Checks the shape of `create`'s options: no top-level name but the options' own (a name from before
 * the options were grouped, such as `userSkills`, is refused rather than ignored), and each group an
 * object; then the options of invocation and nested skills.
 *
 * @throws SkillctxError `INVALID_OPTIONS` naming the bad option.
 */
export function checkOptions(options: AgentContextOptions): void {
  for (const name of Object.keys(options)) {
    if (!Object.hasOwn(OPTION_NAMES, name))
      throw new SkillctxError(
        "INVALID_OPTIONS",
        `${name} is not an option of AgentContext.create; its options are ${Object.keys(OPTION_NAMES).join(", ")}`,
      );
  }
  for (const group of GROUPS) {
    const value: unknown = options[group];
    if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value)))
      throw invalidOption(group, "an object", { got: { value } });
  }
  checkInvocationOptions(options.conversation ?? {});
  const persistent: unknown = options.sources?.persistentCache;
  if (persistent !== undefined && typeof persistent !== "boolean") {
    const dir = typeof persistent === "object" && persistent !== null ? (persistent as { dir?: unknown }).dir : null;
    if (dir !== undefined && (typeof dir !== "string" || !path.isAbsolute(dir)))
      throw invalidOption("sources.persistentCache", "a boolean or { dir?: an absolute path }");
  }
}

/** Longest `sessionId` accepted. */
const MAX_SESSION_ID_CHARS = 256;

/**
 * Checks the options of invocation and nested skills (`conversation.sessionId`, `conversation.nestedSkills`).
 *
 * @throws SkillctxError `INVALID_OPTIONS` naming the bad option.
 */
export function checkInvocationOptions(options: Pick<ConversationOptions, "sessionId" | "nestedSkills">): void {
  const id: unknown = options.sessionId;
  if (
    id !== undefined &&
    (typeof id !== "string" || id.length === 0 || id.length > MAX_SESSION_ID_CHARS || /\p{Cc}/u.test(id))
  ) {
    throw invalidOption(
      "conversation.sessionId",
      `a string of 1 to ${MAX_SESSION_ID_CHARS} characters without control characters`,
    );
  }
  const nested: unknown = options.nestedSkills;
  if (nested === undefined || typeof nested === "boolean") return;
  const max = typeof nested === "object" && nested !== null ? (nested as { maxFolders?: unknown }).maxFolders : null;
  if (max === undefined || isWholeNumberAtLeast(max, 0)) return;
  throw invalidOption("conversation.nestedSkills", "a boolean or { maxFolders?: a non-negative integer }");
}
