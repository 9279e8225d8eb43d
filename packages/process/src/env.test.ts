import { describe, expect, it } from "vitest";
import { INHERITED_ENV_NAMES, isShellFunction, processEnv } from "./env.js";

const inherited = {
  PATH: "/usr/bin",
  HOME: "/home/me",
  LANG: "en",
  LC_ALL: "C",
  TERM: "xterm",
  USER: "me",
  SHELL: "/bin/sh",
  TMPDIR: "/tmp",
  LOGNAME: "me",
  OPENAI_API_KEY: "sk-secret",
  AWS_SECRET_ACCESS_KEY: "k",
  GIT_DIR: "/elsewhere/.git",
  UNSET: undefined,
};

describe("processEnv", () => {
  it("inherits only the allowlist and LC_*", () => {
    const { LOGNAME, OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, GIT_DIR, UNSET, ...allowlisted } = inherited;
    expect(Object.keys(allowlisted)).toHaveLength(8);
    expect(processEnv(undefined, { inherited })).toEqual(allowlisted);
    expect([...INHERITED_ENV_NAMES].sort(byCodeUnit)).toEqual([
      "HOME",
      "LANG",
      "PATH",
      "SHELL",
      "TERM",
      "TMPDIR",
      "USER",
    ]);
  });

  it("lets the caller's values win over inherited ones (order pinned)", () => {
    const env = processEnv({ PATH: "/caller", LC_ALL: "caller", EXTRA: "caller" }, { inherited });
    expect(env.PATH).toBe("/caller");
    expect(env.LC_ALL).toBe("caller");
    expect(env.EXTRA).toBe("caller");
    expect(env.HOME).toBe("/home/me");
  });

  it("passes a secret only when the caller names it", () => {
    expect(processEnv(undefined, { inherited })).not.toHaveProperty("OPENAI_API_KEY");
    expect(processEnv({ OPENAI_API_KEY: "given" }, { inherited }).OPENAI_API_KEY).toBe("given");
  });

  it("drops exported shell functions, inherited or given", () => {
    const hostile = {
      ...inherited,
      "BASH_FUNC_ls%%": "() { rm -rf ~; }",
      LC_EVIL: "() { echo pwned; }",
      LANG: " () { :; }; echo pwned",
    };
    const env = processEnv(
      { GIVEN: "() { echo pwned; }", "BASH_FUNC_x%%": "echo", SAFE: "a () b" },
      { inherited: hostile },
    );
    expect(Object.values(env).some((value) => value.includes("pwned") || value.includes("rm -rf"))).toBe(false);
    expect(Object.keys(env).some((name) => name.startsWith("BASH_FUNC_"))).toBe(false);
    expect(env.SAFE).toBe("a () b");
    expect(env.LANG).toBeUndefined();
  });

  it("drops entries no process can take instead of making spawn throw", () => {
    const env = processEnv(
      { "": "x", "A=B": "x", "N\0UL": "x", VALUE: "a\0b", __proto__: "x", OK: "yes" } as Record<string, string>,
      { inherited: {} },
    );
    expect(Object.keys(env).sort(byCodeUnit)).toEqual(["OK"]);
    const proto = processEnv(JSON.parse('{"__proto__": "kept"}') as Record<string, string>, { inherited: {} });
    expect(proto["__proto__"]).toBe("kept");
    expect(Object.getPrototypeOf(proto)).toBeNull();
  });

  it("reads this process's environment by default", () => {
    const env = processEnv();
    expect(env.PATH).toBe(process.env.PATH);
    for (const name of Object.keys(env))
      expect(INHERITED_ENV_NAMES.includes(name) || name.startsWith("LC_")).toBe(true);
  });
});

describe("isShellFunction", () => {
  it("recognises bash's exported functions", () => {
    expect(isShellFunction("X", "() { :; }")).toBe(true);
    expect(isShellFunction("BASH_FUNC_f%%", "echo")).toBe(true);
    expect(isShellFunction("X", "(a)")).toBe(false);
  });
});

// @skillctx/process sits below core (no compareCodePoints here); these names are ASCII.
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
