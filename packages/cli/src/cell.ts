import { printableLine } from "./format.js";
import { fitCodePoints } from "@skillctx/core/internal";

/** A table cell: whitespace runs collapsed to one space, then made printable, at most `width` characters. */
export function cell(text: string, width = Number.POSITIVE_INFINITY): string {
  const flat = printableLine(text.replace(/[\t\n\r\f\v ]+/g, " ").trim());
  return fitCodePoints(flat, width);
}
