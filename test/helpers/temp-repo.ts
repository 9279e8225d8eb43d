import { mkdir, mkdtemp, realpath, rm, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A throwaway folder with real files; `dispose()` removes it. */
export interface TempRepo {
  dir: string;
  write(relative: string, text: string, options?: { executable?: boolean }): Promise<string>;
  dispose(): Promise<void>;
}

/** Makes a temp folder and writes `files` (relative path → text) into it. */
export async function tempRepo(files: Record<string, string> = {}): Promise<TempRepo> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-test-")));
  const repo: TempRepo = {
    dir,
    async write(relative, text, options = {}) {
      const file = path.join(dir, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      if (options.executable) await chmod(file, 0o755);
      return file;
    },
    async dispose() {
      await rm(dir, { recursive: true, force: true });
    },
  };
  for (const [relative, text] of Object.entries(files)) await repo.write(relative, text);
  return repo;
}
