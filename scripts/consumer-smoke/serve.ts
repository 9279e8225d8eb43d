// skillctx/serve: the fixture's skills served over MCP (SEP-2640), read back with the SDK's own client.
import { createSkillServer } from "skillctx/serve";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { check, fixture } from "./check.js";

const server = await createSkillServer({ cwd: fixture });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: "smoke", version: "1.0.0" });
await client.connect(clientSide);
try {
  const listed = (await client.request(
    { method: "skills/list", params: {} },
    (
      await import("skillctx/serve")
    ).SkillsListResultSchema,
  )) as { skills: { uri: string }[] };
  check(
    listed.skills.some((s) => s.uri === "skill://release-notes/SKILL.md"),
    "skills/list lists the fixture's skill",
  );
  const read = await client.readResource({ uri: "skill://release-notes/SKILL.md" });
  check(JSON.stringify(read.contents).includes("release-notes"), "resources/read returns its SKILL.md");
} finally {
  await client.close();
  await server.close();
}
