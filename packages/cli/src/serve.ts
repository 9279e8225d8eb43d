import { SkillctxError } from "@skillctx/core";
import { errorText, readTextFile } from "@skillctx/core/internal";
import * as path from "node:path";
import { commandSpec } from "./command-specs.js";
import { formatDiagnostic, printableLine } from "./format.js";
import { EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { cliTemplates } from "./load.js";
import { parseFlags, resolveCwd, userSkills } from "./options.js";
import type { Flags } from "./options.js";
import type { HttpAuthOptions } from "@skillctx/skills-mcp";

/** Largest --token-file read, in bytes. */
export const MAX_TOKEN_FILE_BYTES = 64 * 1024;

/**
 * `skillctx serve`: the skills an agent in `--cwd` sees, served over MCP (SEP-2640 skills extension and
 * the `load_skill` / `read_skill_resource` tools) on stdio (the default) or Streamable HTTP. Runs until
 * stdin ends (stdio), or Ctrl-C / SIGTERM, then closes every session. stdout belongs to the protocol
 * under `--stdio`: what the command has to say goes to stderr.
 */
export const serveCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("serve").flags);
    const port = httpPort(flags);
    if (port !== undefined && flags.bool("stdio")) throw new UsageError("--stdio and --http exclude each other");
    if (port === undefined) {
      for (const flag of ["host", "token-file", "token-env", "public-url"] as const)
        if (flags.string(flag) !== undefined) throw new UsageError(`--${flag} needs --http PORT`);
      for (const flag of ["allow-host", "authorization-server"] as const)
        if (flags.list(flag).length > 0) throw new UsageError(`--${flag} needs --http PORT`);
      if (flags.bool("sessions")) throw new UsageError("--sessions needs --http PORT");
    }
    const ttlMs = wholeFlag(flags, "ttl-ms");
    const auth = port === undefined ? undefined : await authOptions(flags);
    const cwd = resolveCwd(flags.string("cwd"));
    const extra = flags.list("skills").map((p) => path.resolve(p));
    const [{ createSkillServer }, { serveSkillsHttp }] = await Promise.all([
      import("@skillctx/skills-mcp"),
      import("@skillctx/skills-mcp"),
    ]);
    const skills = await createSkillServer({
      cwd,
      ...(!flags.bool("no-watch") && { watch: true }),
      ...(ttlMs !== undefined && { ttlMs }),
      context: {
        sources: {
          userSkills: userSkills(flags),
        },
        conversation: {
          templates: cliTemplates,
        },
        ...(flags.string("model") !== undefined && { model: flags.string("model") }),
        ...(extra.length > 0 && { skills: extra }),
      },
      signal: io.signal,
    });
    for (const d of skills.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
    const count = skills.index.skills.length;
    io.stderr.write(`skillctx serve: ${count === 1 ? "1 skill" : `${count} skills`} from ${printableLine(cwd)}\n`);
    try {
      if (port !== undefined) {
        const http = await serveSkillsHttp(skills, {
          port,
          host: flags.string("host"),
          sessions: flags.bool("sessions"),
          allowedHosts: flags.list("allow-host"),
          auth,
          // A log line quotes request paths and error text: through the one terminal filter like every other line.
          log: (line) => io.stderr.write(`skillctx serve: ${printableLine(line)}\n`),
        }).catch((error: unknown) => {
          if (error instanceof TypeError || (SkillctxError.isInstance(error) && error.code === "INVALID_OPTIONS"))
            throw new UsageError(errorText(error));
          throw error;
        });
        io.stderr.write(
          `skillctx serve: listening on ${http.url}${auth === undefined ? "" : " (bearer token required)"}\n`,
        );
        try {
          await aborted(io.signal);
        } finally {
          await http.close();
        }
      } else {
        const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
        const transport = new StdioServerTransport();
        const ended = new Promise<void>((resolve) => {
          process.stdin.once("end", resolve);
          process.stdin.once("close", resolve);
          transport.onclose = resolve;
        });
        await skills.connect(transport);
        await Promise.race([ended, aborted(io.signal)]);
      }
    } finally {
      await skills.close();
    }
    return EXIT_OK;
  },
};

// --http PORT: a whole number 0-65535 (0: the system picks a free port).
function httpPort(flags: Flags): number | undefined {
  const given = flags.string("http");
  if (given === undefined) return undefined;
  const port = /^\d{1,5}$/.test(given) ? Number(given) : Number.NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new UsageError(`--http must be a port number from 0 to 65535, got '${given}'`);
  return port;
}

// --token-file / --token-env / --authorization-server: the endpoint's authentication, or undefined when
// none of them is given. Fails closed: once authentication is asked for, every source named must give at
// least one token; the result then meets the library's one check (http-auth.ts bearerCheck) before the
// server listens. No source ever turns into "no tokens, so no authentication".
async function authOptions(flags: Flags): Promise<HttpAuthOptions | undefined> {
  const file = flags.string("token-file");
  const env = flags.string("token-env");
  const servers = flags.list("authorization-server");
  const publicUrl = flags.string("public-url");
  if (file === undefined && env === undefined && servers.length === 0) return undefined;
  if (servers.length > 0 && publicUrl === undefined)
    throw new UsageError("--authorization-server needs --public-url (the endpoint's URL as clients reach it)");
  const tokens: string[] = [];
  if (file !== undefined) {
    const found = tokenLines(await readTokenFile(file));
    if (found.length === 0) throw new UsageError(`--token-file ${file}: no token in the file`);
    tokens.push(...found);
  }
  if (env !== undefined) {
    const value = process.env[env];
    if (value === undefined || value.trim() === "") throw new UsageError(`--token-env ${env}: the variable is not set`);
    const found = value.split(/[\s,]+/).filter((t) => t !== "");
    if (found.length === 0) throw new UsageError(`--token-env ${env}: no token in the variable (only separators)`);
    tokens.push(...found);
  }
  if (tokens.length === 0)
    throw new UsageError("--authorization-server needs a token check: --token-file, --token-env, or a proxy in front");
  return {
    tokens,
    ...(servers.length > 0 && { resourceMetadata: { resource: publicUrl!, authorizationServers: servers } }),
  };
}

// Read as a regular UTF-8 file of at most MAX_TOKEN_FILE_BYTES (core's reader); the error never quotes it.
async function readTokenFile(file: string): Promise<string> {
  const read = await readTextFile(path.resolve(file), { maxBytes: MAX_TOKEN_FILE_BYTES });
  if (!read.ok) throw new UsageError(`--token-file ${file}: ${read.code}`);
  return read.text;
}

// One token per line; blank lines and # comments are skipped.
function tokenLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

function wholeFlag(flags: Flags, name: "ttl-ms"): number | undefined {
  const given = flags.string(name);
  if (given === undefined) return undefined;
  if (!/^\d{1,9}$/.test(given)) throw new UsageError(`--${name} must be a whole number, got '${given}'`);
  return Number(given);
}

// Resolves when `signal` aborts (Ctrl-C, SIGTERM); never without one.
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
