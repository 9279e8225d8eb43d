/** `text` (resolved against `base` when given) as a URL when it is an absolute http or https URL; otherwise undefined. */
export function httpUrl(text: string, base?: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return undefined;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}
