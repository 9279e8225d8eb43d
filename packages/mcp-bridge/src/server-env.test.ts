import { describe, expect, it } from "vitest";
import { serverEnv } from "./server-env.js";

describe("serverEnv", () => {
  const inherited = { PATH: "/usr/bin", HOME: "/home/me", LC_ALL: "C", LANG: "en", SECRET: "s", AWS_SECRET_ACCESS_KEY: "k", LOGNAME: "me", UNSET: undefined };

  it("inherits only the allowlist and LC_*", () => {
    expect(serverEnv({ inherited })).toEqual({ PATH: "/usr/bin", HOME: "/home/me", LC_ALL: "C", LANG: "en" });
  });

  it("lets the caller's values win over inherited ones, and the server's own over both", () => {
    const env = serverEnv({ inherited, extra: { PATH: "/caller", A: "caller", B: "caller" }, own: { B: "server", C: "server" } });
    expect(env).toEqual({ PATH: "/caller", HOME: "/home/me", LC_ALL: "C", LANG: "en", A: "caller", B: "server", C: "server" });
  });
});
