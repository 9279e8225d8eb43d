// Serves the skills of a folder with skillctx's own createSkillServer, in its own process (run through tsx):
//   node --import tsx/esm serve-skills.mts <cwd> [--http]
// stdio by default; with --http it listens on 127.0.0.1 and prints "LISTENING <url>", exiting when stdin ends.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createSkillServer, serveSkillsHttp } from "../../packages/skills-mcp/src/index.js";

const [cwd, flag] = process.argv.slice(2);
const skills = await createSkillServer({ cwd: cwd!, context: { sources: { userSkills: false }, guidance: false } });
if (flag === "--http") {
  const http = await serveSkillsHttp(skills, { port: 0 });
  process.stdout.write(`LISTENING ${http.url}\n`);
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else {
  await skills.connect(new StdioServerTransport());
}
