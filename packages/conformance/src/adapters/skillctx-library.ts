/**
 * skillctx through its library: `AgentContext.create` with the case's cwd, HOME, model and options, then
 * one `buildContext([])` for the system prompt and its diagnostics; a case's `play` is a second step, built
 * for its user message and the `read_file` call of its touched file (with the file's text as the result).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { AgentContext } from "skillctx";
import type { AgentContextOptions, Message } from "skillctx";
import type { CaseRun, ConformanceAdapter, Observation } from "../adapter.js";

/** The repository-relative form of `file`. */
export const relativeTo = (repo: string, file: string): string =>
  path.relative(repo, path.resolve(file)).split(path.sep).join("/");

/** The AgentContext options of a case (each has a CLI flag: skillctx-cli.ts maps the same ones). */
export function contextOptions(run: CaseRun): AgentContextOptions {
  const { model, options } = run.case;
  return {
    cwd: run.cwd,
    sources: {
      homeDir: run.home,
      userSkills: options?.userSkills ?? false,
      ...(options?.projectRootMarkers !== undefined && { projectRootMarkers: options.projectRootMarkers }),
    },
    ...(model !== undefined && { model }),
    ...(options?.trust !== undefined && { trust: options.trust }),
    ...(options?.guidance?.emulate !== undefined && {
      guidance: { emulate: options.guidance.emulate as "codex" },
    }),
  };
}

/** skillctx's `AgentContext`. */
export function skillctxLibraryAdapter(): ConformanceAdapter {
  return {
    name: "skillctx (library)",
    plays: { message: true, toolCall: true },
    async observe(run) {
      const ctx = await AgentContext.create(contextOptions(run));
      try {
        const step = await ctx.buildContext([]);
        const guidance: string[] = [];
        const pathRules: string[] = [];
        for (const skill of ctx.skills) {
          if (skill.source.path === undefined) continue;
          const aliases = (skill.metadata["aliases"] ?? "").split(", ").filter(Boolean);
          const where = [relativeTo(run.repo, skill.source.path), ...aliases];
          if (skill.trigger.type === "always") guidance.push(...where);
          if (skill.trigger.type === "path") pathRules.push(...where);
        }
        const played = run.case.play === undefined ? undefined : await ctx.buildContext(await playedMessages(run));
        const activated =
          played?.activated.flatMap((a) => {
            const file = ctx.skills.find((s) => s.name === a.skill)?.source.path;
            return file === undefined ? [] : [relativeTo(run.repo, file)];
          }) ?? undefined;
        const observed: Observation = {
          ...(activated !== undefined && { activated }),
          system: step.system,
          guidance,
          pathRules,
          skills: ctx.skills.map((s) => ({ name: s.name, description: s.description })),
          diagnostics: step.diagnostics.map((d) => d.code),
        };
        return observed;
      } finally {
        await ctx.close();
      }
    },
  };
}

/** The messages of a case's played step: its user message, then the tool call that reads its touched file. */
async function playedMessages(run: CaseRun): Promise<Message[]> {
  const play = run.case.play!;
  const messages: Message[] = [{ role: "user", content: play.message ?? "Go on." }];
  if (play.touched !== undefined) {
    const file = path.join(run.repo, play.touched);
    messages.push(
      { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "read_file", args: { path: file } }] },
      { role: "tool", content: await readFile(file, "utf8"), toolCallId: "t1" },
    );
  }
  return messages;
}
