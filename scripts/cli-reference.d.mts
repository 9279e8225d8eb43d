export const CLI_DOC: string;
export const START: string;
export const END: string;
export const LIST_SAMPLE: { args: string[] };
export function referenceBlock(texts: {
  overview: string;
  commands: { name: string; help: string }[];
  list: string;
}): string;
export function withReference(doc: string, block: string): string;
