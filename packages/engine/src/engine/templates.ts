import { promptAttr as attr, promptLine, promptQuote as quote } from "@skillctx/core";
import type { SkillInput } from "@skillctx/core";

/** What an injection block is built from. */
export interface InjectionInfo {
  skill: string;
  /**
   * Why it is attached: a keyword, task or path trigger; a user command (`/name`, `@name`,
   * `ctx.invoke`); or `reattach`, an invoked or loaded body repeated after the host condensed its message away.
   */
  trigger: "keyword" | "task" | "path" | "command" | "reattach";
  /** The keyword or path that fired it, or the invoking text (`/deploy staging`; `load` for a re-attached loaded skill). */
  match: string;
  /** Where the skill lives (its folder, relative to cwd when inside it), so relative references resolve. */
  location: string | undefined;
  /** The rendered body. */
  body: string;
  /** Task inputs still missing a value: the model should ask the user for them. */
  missingInputs: SkillInput[];
}

/** One always-on guidance file in the repository-context block. */
export interface GuidanceEntry {
  name: string;
  /** Where it was read from, relative to cwd when inside it. */
  location: string | undefined;
  text: string;
}

/** What the note attached to a tool result that revealed nested skills is built from. */
export interface NestedCatalogInfo {
  /** The skill folder, relative to the project root (`packages/web/.claude/skills`). */
  folder: string;
  /** The path the tool call touched. */
  match: string;
  /** Catalog entries of the folder's skills, in the format of the catalog in `system`. */
  catalog: string;
  /** How the toolset loads a skill (`the load_skill tool`, ...). */
  loadInstruction: string;
}

/** What the catalog intro may depend on. */
export interface CatalogIntroInfo {
  /** How the toolset loads a skill: `the load_skill tool`, `the skills tool (action "activate")`, ... */
  loadInstruction: string;
}

/** The wording skillctx puts around skill text. Every template is overridable through `templates`. */
export interface Templates {
  /** The repository-guidance block of `system`; called only when there is guidance. */
  guidance(entries: readonly GuidanceEntry[]): string;
  /**
   * The line that introduces the skill catalog in `system`: a string, or a function of how the toolset
   * loads a skill (`loadInstruction` is e.g. `the load_skill tool`).
   */
  catalogIntro: string | ((info: CatalogIntroInfo) => string);
  /** The text attached to a message when a skill fires, is invoked by the user, or is re-attached after condensation. */
  injection(info: InjectionInfo): string;
  /** The note attached to a tool result whose call revealed a nested skill folder (the catalog in `system` never changes). */
  nestedCatalog(info: NestedCatalogInfo): string;
  /** What replaces a `!`cmd`` span of an untrusted skill; `origin` is a remote skill's source name. */
  untrustedCommand(command: string, scope: "project" | "user" | "remote", origin?: string): string;
}

export const defaultTemplates: Templates = {
  guidance(entries) {
    const blocks = entries.map((entry) => {
      const where = entry.location === undefined ? "" : ` path="${attr(entry.location)}"`;
      return `<guidance name="${attr(entry.name)}"${where}>\n${entry.text.trim()}\n</guidance>`;
    });
    return `<repository_guidance>\nInstructions for working in this repository, from its guidance files.\n\n${blocks.join("\n\n")}\n</repository_guidance>`;
  },

  catalogIntro: ({ loadInstruction }) =>
    `Skills are available for specialised tasks. When a task matches a skill's description, load the skill with ${loadInstruction} before acting.`,

  injection(info) {
    const where =
      info.location === undefined
        ? ""
        : ` Its files are in ${promptLine(info.location)}; resolve relative references there.`;
    const lines = [
      `<skill name="${attr(info.skill)}" trigger="${info.trigger}" match="${attr(info.match)}">`,
      `${injectionReason(info)}${where}`,
      "",
      info.body.trim(),
    ];
    if (info.missingInputs.length > 0) {
      lines.push(
        "",
        "Ask the user for these inputs before you start, then use their values in place of the ${…} placeholders above:",
      );
      for (const input of info.missingInputs) {
        lines.push(`- ${promptLine(input.name)}${input.description ? `: ${promptLine(input.description)}` : ""}`);
      }
    }
    lines.push("</skill>");
    return lines.join("\n");
  },

  nestedCatalog(info) {
    return [
      `<nested_skills folder="${attr(info.folder)}">`,
      `More skills became available because a tool touched ${quote(info.match)}. When a task matches one, load it with ${info.loadInstruction}.`,
      "",
      info.catalog.trim(),
      "</nested_skills>",
    ].join("\n");
  },

  untrustedCommand(command, scope, origin) {
    if (scope === "remote") {
      const name = JSON.stringify(origin ?? "");
      return `[Not run: \`${command}\` comes from a remote skill served by ${name}, which is not trusted. Pass trust: { remote: [${name}] } to allow it.]`;
    }
    return `[Not run: \`${command}\` comes from a ${scope} skill, which is not trusted. Pass trust: { ${scope}: true } to allow it.]`;
  },
};

function injectionReason(info: InjectionInfo): string {
  const skill = quote(info.skill);
  switch (info.trigger) {
    case "path":
      return `The skill ${skill} was attached because a tool touched ${quote(info.match)}.`;
    case "command":
      return `The user invoked the skill ${skill} with ${quote(info.match)}: follow it.`;
    case "reattach":
      return `The skill ${skill} is still active. The message that carried it was condensed away, so it is repeated here.`;
    default:
      return `The skill ${skill} was attached because the message mentions ${quote(info.match)}.`;
  }
}
