// Fuzz: the catalog and note builders, the one prompt escape (core text/prompt-text.ts). Whatever a
// skill, folder, file or path is called, no escaped field holds a tag of ours, and each block we
// build opens and closes exactly once, its closing tag last.
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { buildCatalog, promptAttr, promptLine, promptQuote } from "@skillctx/core";
import type { Skill } from "@skillctx/core";
import { buildCatalogNote } from "../../packages/engine/src/engine/catalog-note.js";
import { suggestionText } from "../../packages/engine/src/engine/suggestions.js";
import { defaultTemplates } from "../../packages/engine/src/engine/templates.js";
import { formatSearchResults } from "../../packages/engine/src/tools/search-skills.js";
import { expectNoTagOfOurs, fuzz, hostileName, hostileText, report } from "./harness.js";

afterAll(() => console.info(report()));

const skill = (name: string, description: string, origin?: string): Skill => ({
  name,
  description,
  content: "",
  source:
    origin === undefined
      ? { kind: "inline", format: "inline", scope: "programmatic" }
      : ({ kind: "inline", format: "inline", scope: "remote", origin } as Skill["source"]),
  trigger: { type: "on-demand" },
  metadata: {},
});

const skills = fc
  .array(fc.tuple(hostileName, hostileText, fc.option(hostileName, { nil: undefined })), { maxLength: 8 })
  .map((rows) => rows.map(([name, description, origin]) => skill(name, description, origin)));

/** `text` holds `<tag` once and `</tag>` once, at its end. */
function expectOneBlock(text: string, tag: string): void {
  expect(text.split(`</${tag}>`), text).toHaveLength(2);
  expect(text.trimEnd().endsWith(`</${tag}>`)).toBe(true);
  expect(text.split(`<${tag}`)).toHaveLength(2);
}

it("promptLine, promptAttr and promptQuote: one line, no < > or (in attributes) raw quote", async () => {
  await fuzz("prompt-escape", hostileText, (text) => {
    for (const out of [promptLine(text), promptAttr(text)]) {
      expect(/[<>\n\r\u0000-\u0008\u000e-\u001f]/.test(out)).toBe(false);
      expectNoTagOfOurs(out);
    }
    expect(promptAttr(text).includes('"')).toBe(false);
    expect(promptQuote(text).slice(1, -1).includes('"')).toBe(false);
  });
});

it("buildCatalog (xml and markdown, any budget): one <available_skills> block, no tag inside an entry", async () => {
  await fuzz(
    "catalog",
    fc.tuple(
      skills,
      fc.constantFrom("xml", "markdown") as fc.Arbitrary<"xml" | "markdown">,
      fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
    ),
    ([list, format, budgetTokens]) => {
      const result = buildCatalog(list, { format, ...(budgetTokens !== undefined && { budgetTokens }) });
      if (format === "xml" && result.text !== "") {
        expectOneBlock(result.text, "available_skills");
        const entries = result.text.split("\n").slice(1, -1).join("\n");
        expect(entries.replace(/<\/?(?:skill|name|description|more_skills)>/g, "")).not.toMatch(/[<>]/);
      }
      if (format === "markdown") expect(result.text).not.toMatch(/[<>]/);
    },
  );
});

it("nested and update notes, injection and load wrappers: each block closes once, at its end", async () => {
  await fuzz(
    "notes",
    fc.tuple(
      skills,
      hostileName,
      hostileText,
      fc.array(hostileName, { maxLength: 5 }),
      fc.integer({ min: 600, max: 20_000 }),
    ),
    ([list, folder, match, names, maxBytes]) => {
      const nested = buildCatalogNote({
        sections: [{ skills: list }, { names, sentence: (l) => `Removed: ${l}.` }],
        frame: (catalog) =>
          defaultTemplates.nestedCatalog({ folder, match, catalog, loadInstruction: "the load_skill tool" }),
        format: "xml",
        maxBytes,
        seeMore: `List ${promptLine(folder)}.`,
      });
      if (list.length + names.length > 0) expectOneBlock(nested.text, "nested_skills");
      const update = buildCatalogNote({
        sections: [
          { title: "New skills:", skills: list },
          { names, sentence: (l) => `Removed, no longer available: ${l}.` },
        ],
        frame: (body) => ["<skills_update>", body, "</skills_update>"].join("\n"),
        format: "markdown",
        maxBytes,
        seeMore: "More.",
      });
      expectOneBlock(update.text, "skills_update");
      const injected = defaultTemplates.injection({
        skill: folder,
        trigger: "path",
        match,
        location: folder,
        body: "Body.",
        missingInputs: names.map((name) => ({ name, description: match })),
      });
      expectOneBlock(injected, "skill");
      expect(injected.split("\n").filter((line) => line.startsWith("<skill ")).length).toBe(1);
      const guidance = defaultTemplates.guidance([{ name: folder, location: match, text: "Text." }]);
      expectOneBlock(guidance, "repository_guidance");
      expectNoTagOfOurs(
        suggestionText(
          names.map((name) => ({ name, score: 1, matched: [{ term: match, fields: ["name"] }] })) as never,
          "load_skill",
        ),
      );
      expectNoTagOfOurs(
        formatSearchResults(
          match,
          list.map((s) => ({ name: s.name, description: s.description, score: 1, matched: [] })) as never,
          "load_skill",
          true,
        )
          .split("\n")
          .slice(1)
          .join("\n"),
      );
    },
  );
});
