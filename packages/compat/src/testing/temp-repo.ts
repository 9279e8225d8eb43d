// Test support (not built): fixture repositories copied into temp folders, and real git repositories.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** The fixture repositories of this package. */
export const FIXTURES = fileURLToPath(new URL("../../../../fixtures/compat/", import.meta.url));

/**
 * Whether git is on PATH for this test run: test/setup/tools.ts lists the missing tools in
 * SKILLCTX_MISSING_TOOLS (and prints one line naming each); tests that need git are skipped without it.
 */
export const HAS_GIT = !(process.env["SKILLCTX_MISSING_TOOLS"] ?? "").split(",").includes("git");

const made: string[] = [];

/** A fresh temp folder; removed by {@link removeTempDirs}. */
export async function tempDir(prefix = "skillctx-compat-"): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder made by {@link tempDir}. Call from `afterAll`. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * Copies `fixtures/compat/<name>` to `<temp>/repo` (outside any git repository) and returns that path.
 * The temp folder above it is free for files "outside the repository".
 */
export async function copyFixture(name: string): Promise<string> {
  const parent = await tempDir();
  const repo = path.join(parent, "repo");
  await cp(path.join(FIXTURES, name), repo, { recursive: true });
  return repo;
}

/** Writes a file (text or bytes), creating folders. */
export async function put(root: string, relative: string, content: string | Uint8Array): Promise<string> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

/** Creates a symlink at `relative` pointing to `target` (as written). */
export async function link(root: string, relative: string, target: string): Promise<void> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await symlink(target, file);
}

/** Runs git in `cwd` with a fixed identity. */
export function git(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "user.name=skillctx", "-c", "user.email=skillctx@example.com", "-c", "commit.gpgsign=false", ...args],
      { cwd, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error === null ? resolve(stdout) : reject(new Error(`git ${args.join(" ")}: ${stderr || error.message}`)),
    );
  });
}

/** `git init` plus, unless `commit: false`, `git add -A` and a commit of everything not ignored. */
export async function gitInit(dir: string, options: { commit?: boolean } = {}): Promise<void> {
  await git(dir, "init", "-q", "-b", "main");
  if (options.commit === false) return;
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "fixture", "--allow-empty");
}
