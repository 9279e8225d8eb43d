/**
 * User invocation: which skill a user message invokes (`/name args` at its start, `@name` mentions of
 * Cursor manual rules anywhere), who may invoke what, and the fields an activation reports.
 */
import type { Diagnostic, KeywordMatcher, Skill } from "@skillctx/core";
import { createKeywordMatcher, diagnostic, SkillctxError } from "@skillctx/core";
import type { Activation, SkillSet } from "../context-types.js";
import type { Message } from "../messages.js";
import type { PendingActivation } from "./conversation.js";
import { fitUtf16, headUtf16 } from "@skillctx/core/internal";

/** A skill a user message (or `ctx.invoke`) invokes. */
export interface CommandHit {
  skill: Skill;
  /** The invoking text as reported (`/deploy staging`, `@react-rules`): one line, at most {@link MAX_MATCH_CHARS}. */
  match: string;
  /** The raw argument text (`""` when none); undefined for an `@` mention. */
  args: string | undefined;
}

/** Characters of the invoking text kept in `activation.match` and in state; the rest becomes "…". */
export const MAX_MATCH_CHARS = 200;

/** Longest `/name` looked up (no skill name is longer; a longer word is not a command). */
const MAX_NAME_CHARS = 1_024;

/**
 * Why the user may not invoke `skill` with `prefix`, or undefined when they may: any skill but
 * repository guidance, unless `user-invocable: false`; a Cursor manual rule (command trigger with
 * prefix `@`) only by `@name`, everything else only by `/name`.
 */
export function notInvocableReason(skill: Skill, prefix: "/" | "@"): string | undefined {
  if (skill.userInvocable === false) return `the skill "${skill.name}" is marked user-invocable: false`;
  if (skill.trigger.type === "always") return `"${skill.name}" is repository guidance, always in the system prompt`;
  const own = skill.trigger.type === "command" ? skill.trigger.prefix : "/";
  if (own !== prefix) return `"${skill.name}" is invoked as ${own}${skill.name}`;
  return undefined;
}

/**
 * The `/name args` a user message starts with (white space before it is allowed), when `name` is a
 * skill the user may invoke. OpenHands task skills are left to their `/name` keyword, which fires
 * them as today (trigger `task`), so they never fire twice. A known skill the user may not invoke
 * gives an `info` diagnostic and the message goes on unchanged; an unknown name is plain text.
 */
export function slashCommand(text: string, skills: SkillSet): { hit?: CommandHit; refused?: Diagnostic } {
  let start = 0;
  while (start < text.length && isSpace(text.charCodeAt(start))) start++;
  if (text.charCodeAt(start) !== SLASH) return {};
  let end = start + 1;
  while (end < text.length && !isSpace(text.charCodeAt(end)) && end - start <= MAX_NAME_CHARS) end++;
  if (end === start + 1 || end - start > MAX_NAME_CHARS) return {};
  const name = text.slice(start + 1, end);
  const skill = skills.byName.get(name);
  if (skill === undefined || skill.trigger.type === "task") return {};
  const reason = notInvocableReason(skill, "/");
  if (reason !== undefined) {
    return {
      refused: diagnostic("COMMAND_NOT_INVOCABLE", "info", `"/${name}" invokes nothing: ${reason}`, {
        path: skill.source.path,
      }),
    };
  }
  const args = text.slice(end).trim();
  return { hit: { skill, args, match: matchText(`/${name}`, args) } };
}

/** The Cursor manual rules (`@name`) a user message mentions, in code-point order of name. Linear in the text. */
export function mentions(text: string, skills: SkillSet): CommandHit[] {
  const matcher = mentionMatcher(skills);
  if (matcher.size === 0 || !text.includes("@")) return [];
  const hits: CommandHit[] = [];
  for (const found of matcher.match(text)) {
    const skill = skills.byName.get(found.skill);
    if (skill !== undefined) hits.push({ skill, args: undefined, match: `@${skill.name}` });
  }
  return hits;
}

/** A `ctx.invoke` call waiting for its step. */
export interface Invocation {
  name: string;
  /** `""` for a `/` command without arguments; undefined for an `@` rule. */
  args: string | undefined;
  match: string;
}

/**
 * Checks a `ctx.invoke(name, args)` call against the skill set: `name` may carry its prefix (`/deploy`,
 * `@rule`). Returns the invocation to place at the next step and the activation to report.
 *
 * @throws SkillctxError `INVALID_ARGUMENTS`, `SKILL_NOT_FOUND`, `SKILL_NOT_INVOCABLE`.
 */
export function resolveInvocation(
  skills: SkillSet,
  name: unknown,
  args: unknown,
): { invocation: Invocation; activation: Activation } {
  if (typeof name !== "string")
    throw new SkillctxError("INVALID_ARGUMENTS", "invoke(name, args?): name must be a string");
  if (args !== undefined && typeof args !== "string")
    throw new SkillctxError("INVALID_ARGUMENTS", "invoke(name, args?): args must be a string");
  const written = name.trim();
  const bare = /^[/@]/.test(written) && !skills.byName.has(written) ? written.slice(1) : written;
  const skill = skills.byName.get(bare);
  if (skill === undefined)
    throw new SkillctxError(
      "SKILL_NOT_FOUND",
      `invoke: no skill named ${JSON.stringify(headUtf16(bare, MAX_MATCH_CHARS))}`,
    );
  const prefix = skill.trigger.type === "command" ? skill.trigger.prefix : "/";
  const reason = notInvocableReason(skill, prefix);
  if (reason !== undefined)
    throw new SkillctxError(
      "SKILL_NOT_INVOCABLE",
      `invoke: ${reason}`,
      skill.source.path === undefined ? {} : { path: skill.source.path },
    );
  const invocation: Invocation =
    prefix === "@"
      ? { name: skill.name, args: undefined, match: `@${skill.name}` }
      : { name: skill.name, args: args ?? "", match: matchText(`/${skill.name}`, args) };
  return { invocation, activation: activationOf(skill, { trigger: "command", match: invocation.match }) };
}

/**
 * Pending `ctx.invoke` calls as commands on the message `at`. A skill that is gone from the skill set
 * (or no longer invocable) since the call is dropped with a `COMMAND_NOT_INVOCABLE` warning.
 */
export function invocationHits(
  invocations: readonly Invocation[],
  skills: SkillSet,
  at: { index: number; fingerprint: string; message: Message },
  notes: Diagnostic[],
): PendingActivation[] {
  const pending: PendingActivation[] = [];
  for (const invocation of invocations) {
    const skill = skills.byName.get(invocation.name);
    const reason =
      skill === undefined
        ? "it is no longer in the skill set"
        : notInvocableReason(skill, invocation.args === undefined ? "@" : "/");
    if (skill === undefined || reason !== undefined) {
      notes.push(diagnostic("COMMAND_NOT_INVOCABLE", "warning", `invoke("${invocation.name}") is dropped: ${reason}`));
      continue;
    }
    pending.push({ skill, trigger: "command", match: invocation.match, ...at, args: invocation.args });
  }
  return pending;
}

/** The invoking text for `activation.match` and state: white space runs as one space, at most {@link MAX_MATCH_CHARS}. */
export function matchText(command: string, args: string | undefined): string {
  const head = args === undefined || args === "" ? command : `${command} ${args.slice(0, MAX_MATCH_CHARS * 4)}`;
  const line = head.replace(/[\s\p{Cc}]+/gu, " ").trim();
  return fitUtf16(line, MAX_MATCH_CHARS);
}

/** The activation of `skill`, with its `model` and `context` when it declares them. */
export function activationOf(skill: Skill, fields: Omit<Activation, "skill" | "model" | "context">): Activation {
  const activation: Activation = { skill: skill.name, ...fields };
  if (typeof skill.model === "string" && skill.model !== "") activation.model = skill.model;
  if (typeof skill.context === "string" && skill.context !== "") activation.context = skill.context;
  return activation;
}

// ---------------------------------------------------------------------------------------------

const SLASH = 0x2f;
const matchers = new WeakMap<SkillSet, KeywordMatcher>();

// The rule's own name without its tool prefix (`cursor:style` → `style`).
function shortName(name: string): string {
  const colon = name.indexOf(":");
  return colon === -1 ? name : name.slice(colon + 1);
}

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x2028 || code === 0x2029;
}

// One automaton per skill set over `@name` of the rules the user may mention: whole tokens, case-insensitive
// (the keyword matcher's rules), so `me@rule.dev` mentions nothing and cost grows with the text only.
function mentionMatcher(skills: SkillSet): KeywordMatcher {
  let matcher = matchers.get(skills);
  if (matcher === undefined) {
    const mentionable = skills.skills.filter(
      (skill) => skill.trigger.type === "command" && skill.trigger.prefix === "@" && skill.userInvocable !== false,
    );
    // `cursor:style` is also `@style`, as Cursor users type it, when no other rule or skill has that short name.
    const shortNames = new Map<string, number>();
    for (const skill of mentionable)
      shortNames.set(shortName(skill.name), (shortNames.get(shortName(skill.name)) ?? 0) + 1);
    const rules = mentionable.map((skill) => {
      const short = shortName(skill.name);
      const unique = short !== skill.name && shortNames.get(short) === 1 && !skills.byName.has(short);
      return {
        name: skill.name,
        trigger: { type: "keyword" as const, keywords: unique ? [`@${skill.name}`, `@${short}`] : [`@${skill.name}`] },
      };
    });
    matcher = createKeywordMatcher(rules);
    matchers.set(skills, matcher);
  }
  return matcher;
}
