export const README_SECTION: [string, string];
export const TARBALLS: string;
export type FirstLoopStep = { kind: "file"; name: string; lang: string; text: string } | { kind: "sh"; text: string };
export function firstLoopSteps(markdown: string, from?: string, to?: string): FirstLoopStep[];
export function firstLoopScript(steps: FirstLoopStep[], tarballs: string): string;
