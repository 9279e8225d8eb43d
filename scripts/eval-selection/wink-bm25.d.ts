// wink-bm25-text-search ships no types: the part of its API the evaluation uses (its README).
declare module "wink-bm25-text-search" {
  interface WinkBm25 {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: Record<string, number> }): boolean;
    definePrepTasks(tasks: ((text: string) => string[])[], field?: string): number;
    addDoc(doc: Record<string, string>, id: number | string): number;
    consolidate(fp?: number): boolean;
    search(text: string, limit?: number): [number | string, number][];
  }
  export default function bm25(): WinkBm25;
}
