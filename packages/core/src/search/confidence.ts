// Text a skill keeps in passing (its body, its reference files, its file names) mentions many things: a
// match there ranks, but a confident answer needs a requested word the skill says of itself (its name,
// description, when_to_use, keywords or headings). A body stuffed with every request's words stays a weak match.
const IN_PASSING = new Set(["body", "references", "files"]);
export function saysItself(matched: readonly { fields: readonly string[] }[]): boolean {
  return matched.some((m) => m.fields.some((field) => !IN_PASSING.has(field)));
}
