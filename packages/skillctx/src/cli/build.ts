import path from "node:path";
import { parseArgs } from "node:util";
import { AgentContext } from "../engine/agent-context.js";
import type { ContextStep } from "../engine/agent-context.js";
import type { Message } from "../messages.js";
import { messageText } from "../messages.js";
import { EXIT_OK } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { formatDiagnostic } from "./format.js";

/** `skillctx build`: plays messages as successive user turns and shows what each step activates. */
export const buildCommand: CliCommand = {
  summary: "play messages as user turns and print each step's activations, then the final context",
  usage: "skillctx build [--cwd DIR] [-m MESSAGE]... [--model M] [--trust] [--no-user] [--json]",
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values } = parseArgs({
      args: argv,
      options: {
        cwd: { type: "string" },
        message: { type: "string", short: "m", multiple: true },
        model: { type: "string" },
        trust: { type: "boolean", default: false },
        "no-user": { type: "boolean", default: false },
        json: { type: "boolean", default: false },
      },
      allowPositionals: false,
    });
    const ctx = await AgentContext.create({
      cwd: path.resolve(values.cwd ?? "."),
      userSkills: !values["no-user"],
      ...(values.model !== undefined && { model: values.model }),
      ...(values.trust && { trust: { project: true } }),
    });
    try {
      const history: Message[] = [];
      const steps: ContextStep[] = [];
      steps.push(await ctx.buildContext(history));
      for (const text of values.message ?? []) {
        history.push({ role: "user", content: text });
        steps.push(await ctx.buildContext(history));
      }
      const last = steps[steps.length - 1]!;
      if (values.json) {
        const json = {
          steps: steps.map((s) => ({ activated: s.activated, diagnostics: s.diagnostics })),
          system: last.system,
          messages: last.messages,
          tools: last.tools,
        };
        io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      } else {
        io.stdout.write(formatSteps(steps, values.message ?? []));
      }
      return EXIT_OK;
    } finally {
      await ctx.close();
    }
  },
};

function formatSteps(steps: ContextStep[], messages: string[]): string {
  const out: string[] = [];
  const initial = steps[0]!;
  for (const d of initial.diagnostics) out.push(formatDiagnostic(d));
  steps.slice(1).forEach((step, i) => {
    out.push(`── step ${i + 1}: user: ${messages[i]}`);
    if (step.activated.length === 0) out.push("   (nothing activated)");
    for (const a of step.activated) {
      const why = a.trigger === "path" ? `touched ${a.match}` : a.trigger === "load" ? "loaded by the model" : `matched "${a.match}"`;
      out.push(`   + ${a.skill} (${a.trigger}: ${why})`);
    }
    for (const d of step.diagnostics) out.push(`   ${formatDiagnostic(d)}`);
  });
  const last = steps[steps.length - 1]!;
  out.push("", "══ system", last.system, "", "══ messages");
  last.messages.forEach((m, i) => out.push(`[${i}] ${m.role}:`, messageText(m), ""));
  if (last.tools.length > 0) out.push("══ tools", ...last.tools.map((t) => `- ${t.name}: ${t.description.split("\n")[0]}`));
  return `${out.join("\n")}\n`;
}
