import * as path from "node:path";
import { commandSpec } from "./command-specs.js";
import { formatDiagnostic } from "./format.js";
import { EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { cliTemplates } from "./load.js";
import { parseFlags, resolveCwd, userSkills } from "./options.js";
import type { Flags } from "./options.js";

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
    if (port === undefined && flags.string("host") !== undefined) throw new UsageError("--host needs --http PORT");
    const cwd = resolveCwd(flags.string("cwd"));
    const extra = flags.list("skills").map((p) => path.resolve(p));
    const [{ createSkillServer }, { serveSkillsHttp }] = await Promise.all([
      import("@skillctx/skills-mcp"),
      import("@skillctx/skills-mcp"),
    ]);
    const skills = await createSkillServer({
      cwd,
      context: {
        userSkills: userSkills(flags),
        templates: cliTemplates,
        ...(flags.string("model") !== undefined && { model: flags.string("model") }),
        ...(extra.length > 0 && { skills: extra }),
      },
      signal: io.signal,
    });
    for (const d of skills.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
    const count = skills.index.skills.length;
    io.stderr.write(`skillctx serve: ${count === 1 ? "1 skill" : `${count} skills`} from ${cwd}\n`);
    try {
      if (port !== undefined) {
        const http = await serveSkillsHttp(skills, { port, host: flags.string("host") });
        io.stderr.write(`skillctx serve: listening on ${http.url}\n`);
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

// Resolves when `signal` aborts (Ctrl-C, SIGTERM); never without one.
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
