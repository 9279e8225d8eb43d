import { homedir } from "node:os";
import * as path from "node:path";

/**
 * The folder of skillctx's on-disk caches: `SKILLCTX_CACHE_DIR`, else `$XDG_CACHE_HOME/skillctx`, else the
 * platform's user cache folder (`~/.cache/skillctx`; macOS `~/Library/Caches/skillctx`; Windows
 * `%LOCALAPPDATA%\skillctx\Cache`). A relative `SKILLCTX_CACHE_DIR` or `XDG_CACHE_HOME` is ignored (the XDG
 * Base Directory rule: such a value is invalid), so the folder never depends on the working directory.
 */
export function defaultCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const own = env["SKILLCTX_CACHE_DIR"];
  if (own !== undefined && path.isAbsolute(own)) return own;
  const xdg = env["XDG_CACHE_HOME"];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, "skillctx");
  const home = env["HOME"] !== undefined && path.isAbsolute(env["HOME"]) ? env["HOME"] : homedir();
  if (platform === "darwin") return path.join(home, "Library", "Caches", "skillctx");
  if (platform === "win32") {
    const local = env["LOCALAPPDATA"];
    const base =
      local !== undefined && path.win32.isAbsolute(local) ? local : path.win32.join(home, "AppData", "Local");
    return path.win32.join(base, "skillctx", "Cache");
  }
  return path.join(home, ".cache", "skillctx");
}

/**
 * {@link defaultCacheDir} as seen from `homeDir` (a host's stand-in for the user's home, `sources.homeDir`): that
 * home's cache folder, unless `SKILLCTX_CACHE_DIR` or `XDG_CACHE_HOME` names another. Without `homeDir`, the
 * process's own.
 */
export function cacheDirSeenFrom(homeDir: string | undefined): string {
  return defaultCacheDir(homeDir === undefined ? process.env : { ...process.env, HOME: homeDir });
}
