import { countTokens } from "@skillctx/core";
import type { Skill } from "@skillctx/core";
import type { ContextStep, Message } from "@skillctx/engine";
import { messageText } from "@skillctx/engine";
import { shownPath } from "./format.js";

/** Where a part of the context goes: the system prompt, the tool definitions, or the messages. */
export type ContextArea = "system" | "tools" | "messages";

/** One part of what the agent gets, with its tokens and its share of the window. */
export interface ContextPart {
  area: ContextArea;
  /**
   * `host-prompt` (the host's own prompt), `guidance` (a guidance file in `system`), `catalog`, `notes`
   * (labels, the catalog's intro, separators and cap notes), `tool` (one tool definition), `attachment`
   * (a skill's text attached to the messages), `loaded` (the active skill's body), `conversation` (the
   * messages' own text).
   */
  kind: "host-prompt" | "guidance" | "catalog" | "notes" | "tool" | "attachment" | "loaded" | "conversation";
  /** What it is: a file (relative to the working folder), a skill or tool name, or a label. */
  name: string;
  tokens: number;
  /** `tokens / window`. */
  share: number;
}

/** The breakdown of one step: its parts, in the order the model reads them, and their sum. */
export interface ContextBreakdown {
  window: number;
  /** The sum of the parts' tokens. */
  total: number;
  parts: ContextPart[];
}

/**
 * The parts of `step` with their tokens (the project's counter, `countTokens`): the host prompt, each
 * guidance file, the catalog and what is left of `system` (notes); each tool definition (as JSON:
 * name, description, input schema); each skill's text attached to the messages, the loaded body, and
 * the rest of the messages. Each part is counted alone and `total` is their sum, so the shares add up to
 * the total's share exactly (a text counted whole may differ by a token per join). `step.usage` must be
 * on (`telemetry.usage: true`).
 */
export function contextBreakdown(input: {
  step: ContextStep;
  skills: readonly Skill[];
  systemPrompt: string | undefined;
  catalogText: string | undefined;
  cwd: string;
  window: number;
}): ContextBreakdown {
  const { step, window } = input;
  const parts: Array<Omit<ContextPart, "share">> = [];
  const pathOf = new Map(input.skills.map((s) => [s.name, s.source.path]));
  const label = (name: string) => {
    const file = pathOf.get(name);
    return file === undefined ? name : shownPath(file, input.cwd);
  };
  const usage = step.usage?.skills ?? [];

  // system: the host's prompt, each guidance file in order, the catalog, and the rest (labels, intro, notes).
  const systemTokens = countTokens(step.system);
  let systemParts = 0;
  const host = input.systemPrompt?.trim() === "" ? undefined : input.systemPrompt?.trimEnd();
  if (host !== undefined) {
    const tokens = countTokens(host);
    parts.push({ area: "system", kind: "host-prompt", name: "host prompt", tokens });
    systemParts += tokens;
  }
  const guidanceOrder = input.skills.filter((s) => s.trigger.type === "always").map((s) => s.name);
  const guidance = usage.filter((u) => u.guidance > 0);
  guidance.sort((a, b) => guidanceOrder.indexOf(a.skill) - guidanceOrder.indexOf(b.skill));
  for (const u of guidance) {
    parts.push({ area: "system", kind: "guidance", name: label(u.skill), tokens: u.guidance });
    systemParts += u.guidance;
  }
  if (input.catalogText !== undefined && input.catalogText !== "") {
    const tokens = countTokens(input.catalogText);
    const listed = usage.filter((u) => u.catalog > 0).length;
    parts.push({ area: "system", kind: "catalog", name: `catalog (${listed} skills)`, tokens });
    systemParts += tokens;
  }
  if (systemTokens > systemParts)
    parts.push({ area: "system", kind: "notes", name: "labels and notes", tokens: systemTokens - systemParts });

  // tools: each definition as a provider receives it (JSON).
  for (const tool of step.tools) {
    const json = JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema });
    parts.push({ area: "tools", kind: "tool", name: tool.name, tokens: countTokens(json) });
  }

  // messages: what skills attached, the loaded body, then the conversation's own text.
  let attached = 0;
  for (const u of usage) {
    if (u.attachments > 0) {
      parts.push({ area: "messages", kind: "attachment", name: label(u.skill), tokens: u.attachments });
      attached += u.attachments;
    }
    if (u.loaded > 0) {
      parts.push({ area: "messages", kind: "loaded", name: label(u.skill), tokens: u.loaded });
      attached += u.loaded;
    }
  }
  const conversation = messagesTokens(step.messages) - attached;
  if (conversation > 0)
    parts.push({ area: "messages", kind: "conversation", name: "conversation", tokens: conversation });

  const total = parts.reduce((sum, p) => sum + p.tokens, 0);
  return { window, total, parts: parts.map((p) => ({ ...p, share: p.tokens / window })) };
}

// The messages' text and tool calls, each message counted alone.
function messagesTokens(messages: readonly Message[]): number {
  let tokens = 0;
  for (const m of messages) {
    tokens += countTokens(messageText(m));
    for (const call of m.toolCalls ?? []) tokens += countTokens(`${call.name} ${JSON.stringify(call.args ?? null)}`);
  }
  return tokens;
}

/** `200k` → 200000, `1m` → 1000000, `128000` → 128000; undefined for anything else (or 0). */
export function parseWindow(given: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(given.trim().replace(/[_,]/g, ""));
  if (match === null) return undefined;
  const scale = { "": 1, k: 1_000, m: 1_000_000 }[match[2]!.toLowerCase()]!;
  const value = Math.round(Number(match[1]) * scale);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
