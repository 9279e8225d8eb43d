import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { ProcessTransport } from "./process-transport.js";
import { commandLine, descendants, fixture, isProcessAlive } from "./test-utils.js";

const connect = async (transport: ProcessTransport) => {
  const client = new Client({ name: "test", version: "0" });
  await client.connect(transport);
  return client;
};

describe("ProcessTransport", () => {
  it("passes the allowlisted environment and its env, never the host's secrets or shell functions", async () => {
    const saved = { key: process.env.OPENAI_API_KEY, fn: process.env["BASH_FUNC_x%%"] };
    process.env.OPENAI_API_KEY = "sk-secret";
    process.env["BASH_FUNC_x%%"] = "() { echo pwned; }";
    try {
      const transport = new ProcessTransport({
        command: process.execPath,
        args: [fixture("server.mjs")],
        env: { ONLY: "this", PATH: "/caller/bin" },
      });
      const client = await connect(transport);
      const env = async (name: string) =>
        ((await client.callTool({ name: "env", arguments: { name } })).content as { text: string }[])[0]!.text;
      expect(await env("ONLY")).toBe("this");
      expect(await env("PATH")).toBe("/caller/bin"); // the caller's value wins over the inherited one
      expect(await env("HOME")).toBe(process.env.HOME);
      for (const name of ["OPENAI_API_KEY", "BASH_FUNC_x%%", "LOGNAME"]) expect(await env(name)).toBe("(unset)");
      await client.close();
    } finally {
      if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved.key;
      if (saved.fn === undefined) delete process.env["BASH_FUNC_x%%"];
      else process.env["BASH_FUNC_x%%"] = saved.fn;
    }
  });

  it("stops a stubborn server behind a shell wrapper, which signalling the direct child alone would leave running", async () => {
    const script = `"${process.execPath}" "${fixture("server.mjs")}" --stubborn; echo wrapper-done`;
    const transport = new ProcessTransport({ command: "sh", args: ["-c", script], env: {}, graceMs: 200 });
    const client = await connect(transport);
    const wrapper = transport.pid!;
    const inner = Number(
      ((await client.callTool({ name: "pid", arguments: {} })).content as { text: string }[])[0]!.text,
    );
    expect(inner).not.toBe(wrapper);
    expect(commandLine(inner)).toContain("--stubborn");

    await client.close();
    expect(isProcessAlive(wrapper)).toBe(false);
    expect(isProcessAlive(inner)).toBe(false);
    expect(descendants()).toEqual([]);
    // The wrapper died of SIGTERM; the server inside ignored it and needed the group SIGKILL.
    expect(transport.exit).toEqual({ code: null, signal: "SIGTERM" });
  });

  it("keeps only the tail of stderr and refuses to send once the process is gone", async () => {
    const noisy = `process.stderr.write("x".repeat(10000) + "END"); process.exit(2)`;
    const transport = new ProcessTransport({
      command: process.execPath,
      args: ["-e", noisy],
      env: {},
      stderrBytes: 100,
    });
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await transport.start();
    await closed;
    expect(transport.exit).toEqual({ code: 2, signal: null });
    expect(transport.stderr).toHaveLength(100);
    expect(transport.stderr.endsWith("END")).toBe(true);
    await expect(transport.send({ jsonrpc: "2.0", method: "ping", id: 1 })).rejects.toThrow("Not connected");
    await transport.close();
  });

  it("rejects start() for a command that cannot be spawned", async () => {
    const transport = new ProcessTransport({ command: "/nonexistent/server", env: {} });
    await expect(transport.start()).rejects.toMatchObject({ code: "ENOENT" });
    await transport.close();
  });
});
