/** How many `\n` characters `text` holds: the lines it spans, less one. */
export function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
