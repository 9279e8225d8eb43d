import type { Activation, ContextStep } from "@skillctx/engine";
import type { Message } from "@skillctx/engine";
import { messageText } from "@skillctx/engine";
import { commandSpec } from "./command-specs.js";
import { cell } from "./cell.js";
import { envelopeText } from "./envelope.js";
import { writeFindings } from "./findings.js";
import { printable } from "./format.js";
import { EXIT_FINDINGS, EXIT_OK } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { hasErrors, openContext } from "./load.js";
import { parseFlags } from "./options.js";

/** `skillctx build`: plays messages as successive user turns and shows what each step activates. */
export const buildCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("build").flags);
    const messages = flags.list("message");
    const { ctx, first } = await openContext(flags, io);
    try {
      const history: Message[] = [];
      const steps: ContextStep[] = [first];
      for (const text of messages) {
        history.push({ role: "user", content: text });
        steps.push(await ctx.buildContext(history, io.signal === undefined ? {} : { signal: io.signal }));
      }
      const last = steps[steps.length - 1]!;
      if (flags.bool("json")) {
        io.stdout.write(
          envelopeText(
            "build",
            {
              steps: steps.map((s) => ({ activated: s.activated, diagnostics: s.diagnostics })),
              system: last.system,
              messages: last.messages,
              tools: last.tools,
            },
            steps.flatMap((s) => s.diagnostics),
          ),
        );
      } else {
        io.stdout.write(formatSteps(steps, messages));
        writeFindings(
          steps.flatMap((s) => s.diagnostics),
          (t) => io.stderr.write(t),
          { command: "build", columns: io.columns },
        );
      }
      return steps.some((s) => hasErrors(s.diagnostics)) ? EXIT_FINDINGS : EXIT_OK;
    } finally {
      await ctx.close();
    }
  },
};

function formatSteps(steps: ContextStep[], messages: string[]): string {
  const out: string[] = [];
  steps.slice(1).forEach((step, i) => {
    out.push(`── step ${i + 1}: user: ${cell(messages[i]!, 200)}`);
    if (step.activated.length === 0) out.push("   (nothing activated)");
    for (const a of step.activated) {
      out.push(`   + ${cell(a.skill)} (${a.trigger}: ${cell(activationReason(a))})`);
    }
  });
  const last = steps[steps.length - 1]!;
  if (out.length > 0) out.push("");
  out.push("══ system", printable(last.system), "", "══ messages");
  last.messages.forEach((m, i) => {
    out.push(`[${i}] ${m.role}:`, printable(messageText(m)), "");
  });
  if (last.tools.length > 0)
    out.push("══ tools", ...last.tools.map((t) => `- ${cell(t.name)}: ${cell(t.description.split("\n")[0] ?? "")}`));
  return `${out.join("\n")}\n`;
}

function activationReason(a: Activation): string {
  if (a.trigger === "load") return "loaded by the model";
  if (a.match === undefined) return a.trigger;
  if (a.trigger === "path") return `touched ${a.match}`;
  return a.trigger === "command" ? `invoked as "${a.match}"` : `matched "${a.match}"`;
}
