/**
 * skillctx with LangChain.js v1: `createAgent` runs the tool loop, and `skillctxMiddleware(ctx)` runs
 * `buildContext` before every model call — the system message, the messages with triggered skill text
 * attached (inside the user message or `ToolMessage` that triggered it), and the tools, including the MCP
 * tools of a skill the model loads mid-run, which it runs through `ctx.callTool`.
 *
 * Run: `npx tsx examples/langchain.ts "Add a tags column to notes"` in a repository with skills
 * (`fixtures/demo-repo` has some). With `LANGCHAIN_MODEL` set (a `createAgent` model string such as
 * `openai:gpt-4.1-mini`, its provider package installed and its API key set), that model answers; without
 * it, a scripted model that loads the first skill of the catalog and answers, so the loop runs offline.
 */
import { AIMessage, createAgent, fakeModel, HumanMessage } from "langchain";
import type { BaseMessage } from "langchain";
import { AgentContext } from "skillctx";
import { skillctxMiddleware } from "skillctx/langchain";

const question = process.argv[2] ?? "What does this repository do?";

const ctx = await AgentContext.create({
  cwd: process.cwd(),
  systemPrompt: "You are a careful coding agent.",
  tools: {
    host: [
      {
        name: "read_file",
        description: "Read a text file of the repository",
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        execute: async (args) => `(contents of ${(args as { path: string }).path})`,
      },
    ],
  },
});

try {
  const middleware = skillctxMiddleware(ctx, {
    onStep: (step) => {
      for (const a of step.activated)
        console.log(`[skillctx] ${a.skill} (${a.trigger}${a.match === undefined ? "" : `: ${a.match}`})`);
    },
  });
  const agent = createAgent({ model: process.env.LANGCHAIN_MODEL ?? scriptedModel(), middleware: [middleware] });
  const messages: BaseMessage[] = [new HumanMessage(question)];
  const result = await agent.invoke({ messages });
  console.log(result.messages.at(-1)?.text);
  // The next turn: invoke again with result.messages and a new HumanMessage. To resume later, save
  // `ctx.state` with the messages and pass it back as AgentContext.create({ ..., state }).
  console.log(`conversation state: ${JSON.stringify(ctx.state).length} bytes`);
} finally {
  await ctx.close();
}

// Offline: load the first skill of the catalog, then answer.
function scriptedModel() {
  const skill = ctx.catalog?.included[0];
  const model = fakeModel();
  if (skill !== undefined) model.respondWithTools([{ name: "load_skill", args: { name: skill } }]);
  return model.respond(
    new AIMessage(`(scripted model) ${skill === undefined ? "no skill in the catalog" : `loaded ${skill}`}.`),
  );
}
