import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import matter from "gray-matter";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCatalog, renderCatalog } from "./catalog.js";
import { SkillctxError } from "./errors.js";
import type { Skill, Trigger } from "./skill.js";
import { countTokens } from "./tokens.js";

const CORPUS = process.env["SKILLCTX_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus/", import.meta.url));
const HAS_CORPUS = existsSync(CORPUS); // absent on a fresh clone: the corpus tests are skipped (test/setup/corpus.ts says so)

function skill(
  name: string,
  description?: string,
  trigger: Trigger = { type: "on-demand" },
  extra: Partial<Skill> = {},
): Skill {
  return {
    name,
    ...(description !== undefined && { description }),
    content: "",
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger,
    metadata: {},
    ...extra,
  };
}

/** The 246 real published skills, as name + description read straight from their SKILL.md files. */
let corpus: Skill[] = [];
beforeAll(async () => {
  if (!HAS_CORPUS) return;
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === "SKILL.md") files.push(full);
    }
  };
  await walk(CORPUS);
  corpus = await Promise.all(
    files.map(async (file) => {
      const { data } = matter(await readFile(file, "utf8"));
      return skill(
        String(data.name ?? path.basename(path.dirname(file))),
        typeof data.description === "string" ? data.description : undefined,
      );
    }),
  );
});

describe("buildCatalog: content and format", () => {
  const skills = [
    skill("zeta", "Last one.", { type: "keyword", keywords: ["z"] }),
    skill("alpha", "Does <b>bold</b> & more.\n\n  Second   line."),
    skill("émile", "Accented.", { type: "task", keywords: ["/émile"], inputs: [] }),
    skill("Beta"),
    skill("guide", "Always on.", { type: "always" }),
    skill("rule", "Path rule.", { type: "path", globs: ["**/*.ts"] }),
    skill("hidden", "User only.", { type: "on-demand" }, { disableModelInvocation: true }),
  ];

  it("lists on-demand, keyword and task skills in code-point order, as escaped XML by default", () => {
    const result = buildCatalog(skills);
    expect(result.text).toBe(
      [
        "<available_skills>",
        "<skill>",
        "<name>Beta</name>",
        "</skill>",
        "<skill>",
        "<name>alpha</name>",
        "<description>Does &lt;b&gt;bold&lt;/b&gt; &amp; more. Second line.</description>",
        "</skill>",
        "<skill>",
        "<name>zeta</name>",
        "<description>Last one.</description>",
        "</skill>",
        "<skill>",
        "<name>émile</name>",
        "<description>Accented.</description>",
        "</skill>",
        "</available_skills>",
      ].join("\n"),
    );
    expect(result).toMatchObject({ level: "full", included: ["Beta", "alpha", "zeta", "émile"], omitted: [] });
    expect(result.tokens).toBe(countTokens(result.text));
    expect(renderCatalog(skills)).toBe(result.text);
  });

  it("renders markdown on request, escaped as the XML catalog is (it is quoted inside <nested_skills> and <skills_update>)", () => {
    expect(renderCatalog(skills, { format: "markdown" })).toBe(
      [
        "- **Beta**",
        "- **alpha**: Does &lt;b&gt;bold&lt;/b&gt; &amp; more. Second line.",
        "- **zeta**: Last one.",
        "- **émile**: Accented.",
      ].join("\n"),
    );
  });

  it("reports names as given, even when the text shows them cleaned", () => {
    const result = buildCatalog([skill("odd\n name", "x\u0001y"), skill("a&b", "1 < 2 && 3 > 2")]);
    expect(result.included).toEqual(["a&b", "odd\n name"]);
    expect(result.text).toContain("<name>odd name</name>\n<description>x\ufffdy</description>");
    expect(result.text).toContain("<name>a&amp;b</name>\n<description>1 &lt; 2 &amp;&amp; 3 &gt; 2</description>");
  });

  it('escapes " as &quot; in XML (a quoted word in a description stays well-formed for attribute-minded readers)', () => {
    // The Strands Agents SDK's skill listing escapes quotes (its test expects &quot;: issue 34, item 5).
    const result = buildCatalog([skill("quoted", 'Say "hello" & <wave>')]);
    expect(result.text).toContain("<description>Say &quot;hello&quot; &amp; &lt;wave&gt;</description>");
  });

  it("is empty when nothing is listed", () => {
    expect(buildCatalog([skills[4]!, skills[5]!, skills[6]!])).toEqual({
      text: "",
      tokens: 0,
      level: "full",
      included: [],
      omitted: [],
    });
  });

  it.runIf(HAS_CORPUS)("does not depend on input order (real corpus)", () => {
    const reversed = [...corpus].reverse();
    expect(renderCatalog(reversed)).toBe(renderCatalog(corpus));
    expect(buildCatalog(reversed, { budgetTokens: 3000 })).toEqual(buildCatalog(corpus, { budgetTokens: 3000 }));
  });

  it("refuses bad options", () => {
    for (const options of [{ budgetTokens: -1 }, { budgetTokens: Number.NaN }, { format: "html" as "xml" }]) {
      let error: unknown;
      try {
        buildCatalog(skills, options);
      } catch (caught) {
        error = caught;
      }
      expect(SkillctxError.isInstance(error) && error.code === "INVALID_CATALOG_OPTIONS").toBe(true);
    }
  });
});

describe.runIf(HAS_CORPUS)("buildCatalog: budget degradation on the real corpus", () => {
  it.each(["xml", "markdown"] as const)("degrades full → short → names → partial (%s)", (format) => {
    const full = buildCatalog(corpus, { format });
    const fullTokens = full.tokens;
    expect(full.included).toHaveLength(corpus.length);

    expect(buildCatalog(corpus, { format, budgetTokens: fullTokens })).toMatchObject({
      level: "full",
      tokens: fullTokens,
    });

    const short = buildCatalog(corpus, { format, budgetTokens: fullTokens - 1 });
    expect(short.level).toBe("short");
    expect(short.tokens).toBeLessThan(fullTokens);
    expect(short.tokens).toBe(countTokens(short.text));
    // Each short description is the first sentence of the full one, at most 100 characters.
    const descriptions = [
      ...short.text.matchAll(format === "xml" ? /<description>(.*)<\/description>/g : /^- \*\*.*?\*\*: (.*)$/gm),
    ].map((m) => m[1]!);
    expect(descriptions.length).toBeGreaterThan(200);
    // Counted as written, before XML escaping (`"` becomes `&quot;`).
    const unescape = (text: string) =>
      text
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&");
    for (const description of descriptions) expect([...unescape(description)].length).toBeLessThanOrEqual(100);

    const names = buildCatalog(corpus, { format, budgetTokens: short.tokens - 1 });
    expect(names.level).toBe("names");
    expect(names.text).not.toMatch(/description|\*\*/);
    expect(names.tokens).toBe(countTokens(names.text));

    const budget = Math.floor(names.tokens / 3);
    const partial = buildCatalog(corpus, { format, budgetTokens: budget });
    expect(partial.level).toBe("partial");
    expect(partial.tokens).toBe(countTokens(partial.text));
    expect(partial.tokens).toBeLessThanOrEqual(budget);
    expect([...partial.included, ...partial.omitted]).toEqual(full.included);
    expect(partial.included.length).toBeGreaterThan(0);
    expect(partial.text).toContain(
      `Skills not listed here: ${partial.omitted.length}. Call the search_skills tool with a query to find them.`,
    );
  });

  it("fits exactly as many names as the budget allows", () => {
    const names = buildCatalog(corpus, { budgetTokens: 0 });
    expect(names).toEqual({
      text: "",
      tokens: 0,
      level: "partial",
      included: [],
      omitted: buildCatalog(corpus).included,
    });
    for (const budget of [40, 100, 257, 1000]) {
      const result = buildCatalog(corpus, { budgetTokens: budget, searchTool: "find_skill" });
      expect(result.tokens).toBeLessThanOrEqual(budget);
      expect(result.tokens).toBe(countTokens(result.text));
      // The same catalog with a budget one entry larger (measured independently) must not fit in `budget`.
      const next = result.included.length + 1;
      const bigger = buildCatalog(corpus, { budgetTokens: 1_000_000 }).included.slice(0, next);
      const text = [
        "<available_skills>",
        ...bigger.map((name) => `<skill><name>${name}</name></skill>`),
        `<more_skills>Skills not listed here: ${corpus.length - next}. Call the find_skill tool with a query to find them.</more_skills>`,
        "</available_skills>",
      ].join("\n");
      expect(countTokens(text)).toBeGreaterThan(budget);
    }
  });
});

describe("buildCatalog: exact token counts (property)", () => {
  const weird = fc.constantFrom(
    "<|endoftext|>",
    "\n\n",
    "  ",
    "&",
    "<",
    ">",
    "/",
    "*",
    "_",
    "-",
    ".",
    "…",
    "部署",
    "😀",
    "e\u0301",
    "'s",
    "123",
    "\t",
    "\u2028",
    "\u0007",
  );
  const text = fc
    .array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 8 }), weird), { maxLength: 12 })
    .map((parts) => parts.join(""));
  const skillArb = fc.record({
    name: text.filter((name) => name.trim() !== ""),
    description: fc.option(text, { nil: undefined }),
    trigger: fc.constantFrom<Trigger>({ type: "on-demand" }, { type: "keyword", keywords: ["k"] }, { type: "always" }),
  });

  it("tokens always equals countTokens(text) and never exceeds the budget", () => {
    fc.assert(
      fc.property(
        fc.array(skillArb, { maxLength: 12 }),
        fc.constantFrom("xml" as const, "markdown" as const),
        fc.option(fc.nat({ max: 400 }), { nil: undefined }),
        (entries, format, budgetTokens) => {
          const skills = entries.map((entry) => skill(entry.name, entry.description, entry.trigger));
          const result = buildCatalog(skills, { format, ...(budgetTokens !== undefined && { budgetTokens }) });
          expect(result.tokens).toBe(countTokens(result.text));
          if (budgetTokens !== undefined) expect(result.tokens).toBeLessThanOrEqual(budgetTokens);
          const listed = skills.filter((s) => s.trigger.type !== "always").length;
          expect(result.included.length + result.omitted.length).toBe(listed);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("buildCatalog: descriptions over the cap", () => {
  it("cuts them, whitespace collapsed first, escaped after, ending in …", () => {
    const long = skill("long", `a\t\tb ${"<&>".repeat(20)}`);
    const xml = buildCatalog([long], { maxDescriptionChars: 10 }).text;
    expect(xml).toContain("<description>a b &lt;&amp;&gt;&lt;&amp;…</description>");
    const markdown = buildCatalog([long], { format: "markdown", maxDescriptionChars: 10 }).text;
    expect(markdown).toBe("- **long**: a b &lt;&amp;&gt;&lt;&amp;…");
    // At the cap, nothing is cut.
    expect(buildCatalog([skill("fits", "x".repeat(1024))], { format: "markdown" }).text).toBe(
      `- **fits**: ${"x".repeat(1024)}`,
    );
    expect(buildCatalog([skill("over", "x".repeat(1025))], { format: "markdown" }).text).toBe(
      `- **over**: ${"x".repeat(1023)}…`,
    );
  });

  it("keeps the token count exact and the budget kept with cut descriptions", () => {
    const skills = Array.from({ length: 20 }, (_, i) => skill(`s${i}`, `Sentence ${i}. ${"word ".repeat(400)}`));
    const full = buildCatalog(skills);
    expect(full.tokens).toBe(countTokens(full.text));
    expect(full.text.match(/…<\/description>/g)).toHaveLength(20);
    const budgeted = buildCatalog(skills, { budgetTokens: 500 });
    expect(budgeted.tokens).toBeLessThanOrEqual(500);
  });

  it("refuses a cap below 1", () => {
    for (const bad of [0, -1, Number.NaN]) {
      expect(() => buildCatalog([], { maxDescriptionChars: bad })).toThrow(SkillctxError);
    }
  });
});
