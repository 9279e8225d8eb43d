/**
 * A local model server for the consumer smoke test: test/helpers/fake-provider.ts (answers like the
 * OpenAI Chat Completions and Responses APIs and the Anthropic Messages API) with a two-turn script —
 * the model loads the `release-notes` skill, then answers. Prints its URL on the first line of stdout;
 * on SIGTERM writes every request it received to the file given as the first argument, and exits.
 *   node_modules/.bin/tsx scripts/local-model-server.ts REQUESTS.json
 * The official clients reach it through their base-URL variables: OPENAI_BASE_URL=<url>/v1,
 * ANTHROPIC_BASE_URL=<url>.
 */
import { writeFileSync } from "node:fs";
import { startFakeProvider } from "../test/helpers/fake-provider.js";

const out = process.argv[2];
if (out === undefined) throw new Error("usage: tsx scripts/local-model-server.ts REQUESTS.json");
const provider = await startFakeProvider([
  { calls: [{ name: "load_skill", input: { name: "release-notes" } }] },
  { text: "Features: search. Fixes: the login redirect." },
]);
process.stdout.write(`${provider.url}\n`);
process.on("SIGTERM", () => {
  writeFileSync(out, JSON.stringify(provider.requests.map((r) => ({ api: r.api, body: r.body }))));
  void provider.close().then(() => process.exit(0));
});
