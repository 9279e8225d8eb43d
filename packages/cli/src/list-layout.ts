import { fitCodePoints } from "@skillctx/core/internal";
import { cell } from "./cell.js";
import { shownPath } from "./format.js";
import type { ListedSkill, WhoMayInvoke } from "./listed-skill.js";
import { wrap } from "./wrap.js";

/**
 * The text of `skillctx list`. By default each skill is two parts: a line with its name, trigger and who
 * may invoke it (and the columns that differ between rows: scope, arguments, tokens), then its
 * description, indented and wrapped to the width. A column whose value is the same on every row is left
 * out and said once in the count line. When scope, arguments and tokens would leave the names too little
 * room, the widest of them leave the row for lines of their own under it (`scope user:plugin`,
 * `args [pr]`), so that most names still fit beside their trigger. `wide` is one row per skill with every
 * column and the whole description. Piped output is laid out for {@link PIPED_COLUMNS}, so scripts see
 * the same text whatever terminal ran them (`--json` is the contract).
 */

/** The width `list` lays out for when stdout is not a terminal. */
export const PIPED_COLUMNS = 80;
/** Lines of description shown per skill (the rest is cut with an ellipsis; `--wide` and `--json` have it all). */
export const DESCRIPTION_LINES = 2;
const DESCRIPTION_INDENT = "    ";
const ARGS_WIDTH = 30;

interface Column {
  title: string;
  right?: boolean;
  /** Left out of the default layout when every row has the same value (the count line says it). */
  optional?: boolean;
  /** Only in the wide layout. */
  wideOnly?: boolean;
  /** May leave the row for a line under it when the row leaves the names too little room. */
  movable?: boolean;
  value(s: ListedSkill): string;
  /** The value on a line of its own, when `value` is cut to fit a column. */
  whole?(s: ListedSkill): string;
}

/** The list as text: `columns` is the terminal's width, undefined when piped. */
export function formatList(
  skills: readonly ListedSkill[],
  cwd: string,
  options: { tokens: boolean; wide: boolean; columns?: number | undefined },
): string {
  if (skills.length === 0) return `no skills found for ${cell(cwd)}\n`;
  const all: Column[] = [
    { title: "NAME", value: (s) => cell(s.name) },
    {
      title: "SCOPE",
      optional: true,
      movable: true,
      value: (s) => (s.origin === null ? s.scope : `${s.scope}:${s.origin}`),
    },
    { title: "TRIGGER", optional: true, value: (s) => s.trigger },
    { title: "INVOKE", optional: true, value: (s) => invokeCell(s.invocation) },
    {
      title: "ARGS",
      optional: true,
      movable: true,
      value: (s) => (s.argumentHint === null ? "-" : cell(s.argumentHint, ARGS_WIDTH)),
      whole: (s) => (s.argumentHint === null ? "-" : cell(s.argumentHint)),
    },
    ...(options.tokens
      ? [
          {
            title: "TOKENS",
            right: true,
            movable: true,
            value: (s: ListedSkill) => (s.tokens == null ? "?" : String(s.tokens)),
          },
        ]
      : []),
    {
      title: "PATH",
      wideOnly: true,
      value: (s) => (s.path === null ? "(inline)" : cell(shownPath(s.path, cwd))),
    },
  ];
  const count = skills.length === 1 ? "1 skill" : `${skills.length} skills`;
  if (options.wide) {
    const shown = [...all, { title: "DESCRIPTION", value: (s: ListedSkill) => cell(s.description ?? "") }];
    return `${[...table(shown, skills).flat(), "", count].join("\n")}\n`;
  }
  const same: string[] = [];
  const shown = all.filter((c) => {
    if (c.wideOnly === true) return false;
    if (c.optional !== true || skills.length < 2) return true;
    const values = new Set(skills.map((s) => c.value(s)));
    if (values.size > 1) return true;
    same.push(`${c.title.toLowerCase()} ${[...values][0]!}`);
    return false;
  });
  const width = Math.max(40, options.columns ?? PIPED_COLUMNS);
  const { row, under } = splitRow(shown, skills, width);
  const [header, ...rows] = table(row, skills, width);
  const lines = [...header!];
  skills.forEach((s, i) => {
    lines.push(...rows[i]!);
    lines.push(...underLines(under, s, width));
    if (s.description !== null && s.description.trim() !== "") lines.push(...descriptionLines(s.description, width));
  });
  const note = same.length === 0 ? "" : ` (every one: ${same.join(", ")})`;
  const footer = wrap(`${count}${note}; --wide for paths, --json for every field`, width);
  return `${[...lines, "", ...footer].join("\n")}\n`;
}

/** The description wrapped under its skill, at most {@link DESCRIPTION_LINES} lines, the last cut with an ellipsis when more is left. */
export function descriptionLines(description: string, width: number): string[] {
  const wrapped = wrap(cell(description), width, DESCRIPTION_INDENT);
  const kept = wrapped.slice(0, DESCRIPTION_LINES);
  if (wrapped.length > DESCRIPTION_LINES) kept[kept.length - 1] += "…";
  // A word longer than the line (a URL) is cut too: no line passes the width.
  return kept.map((line) => ([...line].length > width ? `${[...line].slice(0, width - 1).join("")}…` : line));
}

/** The share of names the name column should hold whole beside the other columns. */
const NAMES_BESIDE = 0.75;

/**
 * The columns of the row line, and those moved under it. The name column wants the width that holds
 * {@link NAMES_BESIDE} of the names (at most half the line); while the other columns leave it less, the
 * widest movable column (scope, arguments, tokens) moves to the line under the row. Name, trigger and who
 * may invoke always stay on the row.
 */
function splitRow(
  shown: readonly Column[],
  skills: readonly ListedSkill[],
  width: number,
): { row: Column[]; under: Column[] } {
  const widthOf = (c: Column) => Math.max(c.title.length, ...skills.map((s) => [...c.value(s)].length));
  const names = skills.map((s) => [...shown[0]!.value(s)].length).sort((a, b) => a - b);
  const wanted = names[Math.max(0, Math.ceil(names.length * NAMES_BESIDE) - 1)]!;
  const nameRoom = Math.max(shown[0]!.title.length, Math.min(wanted, Math.floor(width / 2)));
  const row = [...shown];
  const moved = new Set<Column>();
  const others = () => row.slice(1).reduce((n, c) => n + widthOf(c) + 2, 0);
  while (others() > width - nameRoom) {
    const movable = row.filter((c) => c.movable === true);
    if (movable.length === 0) break;
    const widest = movable.reduce((a, b) => (widthOf(b) > widthOf(a) ? b : a));
    row.splice(row.indexOf(widest), 1);
    moved.add(widest);
  }
  return { row, under: shown.filter((c) => moved.has(c)) };
}

/** The moved columns of one skill, one line each (`scope user:plugin-x`), whole up to the width; "-" values left out. */
function underLines(under: readonly Column[], s: ListedSkill, width: number): string[] {
  return under.flatMap((c) => {
    const value = (c.whole ?? c.value)(s);
    return value === "-" ? [] : [fitCodePoints(`${DESCRIPTION_INDENT}${c.title.toLowerCase()} ${value}`, width)];
  });
}

function invokeCell(who: WhoMayInvoke): string {
  if (who.model && who.user !== null) return "model+user";
  if (who.model) return "model";
  return who.user !== null ? "user" : "-";
}

/**
 * The header's lines, then each skill's lines: columns padded to their widest value (the last one only
 * when it is right-aligned). Within `width`, NAME gives way: it is as wide as the other columns leave room for, and a longer
 * name goes on a line of its own, its row's other columns on the next; any line still past the width
 * (wide SCOPE or ARGS values) is cut with an ellipsis.
 */
function table(shown: readonly Column[], skills: readonly ListedSkill[], width = Number.POSITIVE_INFINITY): string[][] {
  const rows = skills.map((s) => shown.map((c) => c.value(s)));
  const header = shown.map((c) => c.title);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
  const others = widths.slice(1).reduce((n, w) => n + w + 2, 0);
  widths[0] = Math.max(header[0]!.length, Math.min(widths[0]!, width - others));
  const line = (cells: string[]) =>
    fitCodePoints(
      cells
        .map((text, i) => {
          const pad = " ".repeat(Math.max(0, widths[i]! - [...text].length));
          if (shown[i]!.right === true) return pad + text;
          return i === cells.length - 1 ? text : text + pad;
        })
        .join("  ")
        .trimEnd(),
      width,
    );
  const skillLines = (cells: string[]) =>
    cells.length > 1 && [...cells[0]!].length > widths[0]!
      ? [fitCodePoints(cells[0]!, width), line(["", ...cells.slice(1)])]
      : [line(cells)];
  return [[line(header)], ...rows.map(skillLines)];
}
