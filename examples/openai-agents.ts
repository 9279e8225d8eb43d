/**
 * skillctx with the OpenAI Agents SDK (`@openai/agents`): the runner drives the tool loop; skillctx
 * gives the agent its tools (kept current as skills load and MCP servers start) and, through
 * `callModelInputFilter`, rebuilds the instructions and the input items before every model call.
 *
 * Run: `npx tsx examples/openai-agents.ts "Add a tags column to notes"` in a repository with skills
 * (`fixtures/demo-repo` has some). With `OPENAI_API_KEY` set, the runner's default OpenAI model is used
 * (`OPENAI_MODEL` picks another); without it, a scripted model that loads the first skill of the
 * catalog and answers, so the loop runs offline.
 */
import { Agent, Runner, tool, Usage } from "@openai/agents";
import type { AgentInputItem, Model, ModelRequest, ModelResponse } from "@openai/agents";
import { AgentContext } from "skillctx";
import { createOpenAIAgentsLoop } from "skillctx/openai-agents";

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

/** Offline: loads the first skill of the catalog, then answers with what was loaded. */
class ScriptedModel implements Model {
  private calls = 0;
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.calls++;
    const skill = ctx.catalog?.included[0];
    const items = Array.isArray(request.input) ? request.input.length : 1;
    const output: ModelResponse["output"] =
      this.calls === 1 && skill !== undefined
        ? [
            {
              type: "function_call",
              callId: "call-1",
              name: "load_skill",
              arguments: JSON.stringify({ name: skill }),
              status: "completed",
            },
          ]
        : [
            {
              type: "message",
              role: "assistant",
              status: "completed",
              content: [
                {
                  type: "output_text",
                  text: `(scripted model) ${items} input items${skill === undefined ? "; no skill in the catalog" : `; loaded ${skill}`}.`,
                },
              ],
            },
          ];
    return { usage: new Usage(), output, responseId: `response-${this.calls}` };
  }
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the scripted model does not stream");
  }
}

try {
  const loop = createOpenAIAgentsLoop(ctx, {
    tool,
    onStep: (step) => {
      for (const a of step.activated)
        console.log(`[skillctx] ${a.skill} (${a.trigger}${a.match === undefined ? "" : `: ${a.match}`})`);
    },
  });
  const agent = new Agent({ name: "assistant", tools: loop.tools });
  const runner = new Runner(
    process.env.OPENAI_API_KEY === undefined
      ? { model: new ScriptedModel(), tracingDisabled: true }
      : { model: process.env.OPENAI_MODEL ?? "gpt-4.1-mini" },
  );
  const input: AgentInputItem[] = [{ role: "user", content: question }];
  const result = await runner.run(agent, input, {
    callModelInputFilter: loop.callModelInputFilter,
    toolNotFoundBehavior: "return_error_to_model", // a call to a tool that is not offered is answered, not fatal
    maxTurns: 20,
  });
  console.log(result.finalOutput);
  // The next turn: runner.run(agent, [...result.history, { role: "user", content: "…" }], sameOptions).
  // To resume later: save `ctx.state` with `result.history`, and pass it back as AgentContext.create({ ..., state }).
  console.log(`conversation state: ${JSON.stringify(ctx.state).length} bytes`);
} finally {
  await ctx.close();
}
