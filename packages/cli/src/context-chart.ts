import { cell } from "./cell.js";
import type { ContextArea, ContextBreakdown, ContextPart } from "./context-breakdown.js";

/**
 * The context view as text, after Claude Code's `/context`: a bar of the whole window (each area its own
 * fill, free room last), then one line per part with its tokens, its share of the window and a bar of
 * its share of what is used. Tool definitions are one line (each tool under it when there are few).
 */

const AREA_FILL: Readonly<Record<ContextArea, string>> = { system: "█", tools: "▓", messages: "▒" };
const AREA_TITLE: Readonly<Record<ContextArea, string>> = {
  system: "system prompt",
  tools: "tool definitions",
  messages: "messages",
};
const FREE_FILL = "·";
/** Tools listed one by one under their line when there are at most this many. */
const TOOLS_LISTED = 8;
const BAR = 20;

export function formatContextChart(
  view: ContextBreakdown,
  options: { columns?: number | undefined; tokenizer: string },
): string {
  const width = Math.max(60, Math.min(options.columns ?? 80, 100));
  const { window, total, parts } = view;
  const lines: string[] = [];
  const windowBar = width - 2;
  let bar = "";
  for (const area of ["system", "tools", "messages"] as const) {
    const tokens = sum(parts.filter((p) => p.area === area));
    bar += AREA_FILL[area].repeat(tokens === 0 ? 0 : Math.max(1, Math.round((tokens / window) * windowBar)));
  }
  bar = [...bar].slice(0, windowBar).join("");
  lines.push(`  ${bar}${FREE_FILL.repeat(Math.max(0, windowBar - [...bar].length))}`);
  lines.push(
    `  ${tokens(total)} of ${tokens(window)} tokens (${percent(total / window)}), ${tokens(Math.max(0, window - total))} free; ${options.tokenizer}`,
  );
  lines.push("");
  const nameWidth = Math.max(24, width - 2 - 8 - 2 - 7 - 2 - BAR - 2);
  const row = (indent: string, name: string, t: number, fill: string) => {
    const label = cell(name, nameWidth - indent.length).padEnd(nameWidth - indent.length);
    const used = total === 0 ? 0 : t / total;
    const length = t === 0 ? 0 : Math.max(1, Math.round(used * BAR));
    return `  ${indent}${label}  ${tokens(t).padStart(8)}  ${percent(t / window).padStart(7)}  ${fill.repeat(length)}`.trimEnd();
  };
  for (const area of ["system", "tools", "messages"] as const) {
    const inArea = parts.filter((p) => p.area === area);
    if (inArea.length === 0) continue;
    const fill = AREA_FILL[area];
    const title = area === "tools" ? `${AREA_TITLE[area]} (${inArea.length})` : AREA_TITLE[area];
    lines.push(row("", title, sum(inArea), fill));
    if (area === "tools" && inArea.length > TOOLS_LISTED) continue;
    for (const part of inArea) lines.push(row("  ", partLabel(part), part.tokens, fill));
  }
  lines.push(row("", "free", Math.max(0, window - total), ""));
  lines.push(
    "",
    `  ${AREA_FILL.system} system  ${AREA_FILL.tools} tools  ${AREA_FILL.messages} messages  ${FREE_FILL} free`,
    "  (a line's bar is its share of what is used; the % its share of the window)",
  );
  return `${lines.join("\n")}\n`;
}

function partLabel(part: ContextPart): string {
  switch (part.kind) {
    case "attachment":
      return `attached: ${part.name}`;
    case "loaded":
      return `loaded: ${part.name}`;
    default:
      return part.name;
  }
}

function sum(parts: readonly ContextPart[]): number {
  return parts.reduce((total, p) => total + p.tokens, 0);
}

/** `1,234` below ten thousand, `12.3k` above, `200k` for round thousands. */
export function tokens(n: number): string {
  if (n < 10_000) return n.toLocaleString("en-US");
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}m`;
  if (n % 1_000 === 0) return `${n / 1_000}k`;
  return `${(n / 1_000).toFixed(1)}k`;
}

/** A share as a percentage with one decimal (`0.9 %`); under 0.05 % but not zero shows `<0.1 %`. */
export function percent(share: number): string {
  if (share > 0 && share < 0.0005) return "<0.1 %";
  return `${(share * 100).toFixed(1)} %`;
}
