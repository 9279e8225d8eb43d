// skillctx/langchain with langchain and @langchain/core installed.
import type { StructuredToolInterface } from "@langchain/core/tools";
import { AgentContext } from "skillctx";
import { skillctxMiddleware, toLangChainTools } from "skillctx/langchain";
import { check, fixture } from "./check.js";

const ctx = await AgentContext.create({ cwd: fixture });
try {
  const tools: StructuredToolInterface[] = toLangChainTools(ctx);
  check(
    tools.some((t) => t.name === "load_skill"),
    "toLangChainTools lists load_skill",
  );
  const middleware = skillctxMiddleware(ctx);
  check(typeof middleware.name === "string", "skillctxMiddleware gives a middleware");
} finally {
  await ctx.close();
}
