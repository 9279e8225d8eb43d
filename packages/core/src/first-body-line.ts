/** The first line of the body (within its first 200 lines) that is not blank, a heading or a rule. */
export function firstBodyLine(body: string): string | undefined {
  let start = 0;
  for (let n = 0; n < 200 && start <= body.length; n++) {
    const nl = body.indexOf("\n", start);
    const end = nl === -1 ? body.length : nl;
    const line = body.slice(start, end).trim();
    if (!(line === "" || line.startsWith("#") || /^(-{3,}|\*{3,}|_{3,}|={3,})$/.test(line))) return line;
    if (nl === -1) break;
    start = nl + 1;
  }
  return undefined;
}
