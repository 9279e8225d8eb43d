import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cacheDirSeenFrom, defaultCacheDir } from "./cache-dir.js";

describe("defaultCacheDir", () => {
  it("takes SKILLCTX_CACHE_DIR first, then XDG_CACHE_HOME, then the platform's user cache folder", () => {
    expect(defaultCacheDir({ SKILLCTX_CACHE_DIR: "/c", XDG_CACHE_HOME: "/x", HOME: "/h" }, "linux")).toBe("/c");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/x", HOME: "/h" }, "linux")).toBe(path.join("/x", "skillctx"));
    expect(defaultCacheDir({ HOME: "/h" }, "linux")).toBe(path.join("/h", ".cache", "skillctx"));
    expect(defaultCacheDir({ HOME: "/h" }, "darwin")).toBe(path.join("/h", "Library", "Caches", "skillctx"));
    expect(defaultCacheDir({ HOME: "/h", LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32")).toBe(
      "C:\\Users\\u\\AppData\\Local\\skillctx\\Cache",
    );
  });

  it("ignores a relative SKILLCTX_CACHE_DIR or XDG_CACHE_HOME (never a folder that depends on the working directory)", () => {
    expect(defaultCacheDir({ SKILLCTX_CACHE_DIR: "rel", XDG_CACHE_HOME: "also-rel", HOME: "/h" }, "linux")).toBe(
      path.join("/h", ".cache", "skillctx"),
    );
  });
});

describe("cacheDirSeenFrom", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("puts the cache under the given home unless SKILLCTX_CACHE_DIR or XDG_CACHE_HOME names a folder", () => {
    vi.stubEnv("SKILLCTX_CACHE_DIR", undefined);
    vi.stubEnv("XDG_CACHE_HOME", undefined);
    vi.stubEnv("HOME", "/real-home");
    const seen = cacheDirSeenFrom("/other-home");
    expect(seen.startsWith(path.join("/other-home"))).toBe(true);
    expect(seen).toBe(defaultCacheDir({ HOME: "/other-home" }));
    expect(cacheDirSeenFrom(undefined)).toBe(defaultCacheDir({ HOME: "/real-home" }));
    vi.stubEnv("XDG_CACHE_HOME", "/xdg");
    expect(cacheDirSeenFrom("/other-home")).toBe(path.join("/xdg", "skillctx"));
    vi.stubEnv("SKILLCTX_CACHE_DIR", "/own");
    expect(cacheDirSeenFrom("/other-home")).toBe("/own");
  });
});
