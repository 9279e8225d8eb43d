import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_CATALOG_DESCRIPTION_CODE_POINTS } from "../limits.js";
import type { Skill } from "../skill.js";
import { embeddingText, headingsOf, keywordsOf, metadataDocument, skillDocument } from "./skill-document.js";
import { inlineSkill } from "../testing/inline-skill.js";

// What search indexes of a skill, field by field (search-options.ts names the fields a match reports).

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function folder(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "skillctx-doc-"));
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

const skill = (extra: Partial<Skill> = {}) => inlineSkill("pdf-forms", "Fill PDF forms.", "# Forms\nFill them.", extra);

describe("metadataDocument", () => {
  it("indexes the name as words, the description and when_to_use as the catalog shows them, keywords and declared files", () => {
    const doc = metadataDocument(
      skill({
        name: "pdf--forms_v2.x:y/z",
        whenToUse: "When a form must be filled.",
        trigger: { type: "keyword", keywords: ["acroform", "fill form"] },
        resources: ["forms.md", "scripts/fill.py"],
      }),
    );
    expect(doc).toMatchObject({
      id: "pdf--forms_v2.x:y/z",
      name: "pdf forms v2 x y z",
      description: "Fill PDF forms.",
      whenToUse: "When a form must be filled.",
      keywords: "acroform\nfill form",
      headings: "",
      body: "",
      references: "",
      files: "forms.md\nscripts/fill.py",
    });
    expect(doc.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("cuts the description and when_to_use at the catalog's limit in code points, and leaves absent ones empty", () => {
    const long = "\u{1f4c4}".repeat(MAX_CATALOG_DESCRIPTION_CODE_POINTS + 10);
    const doc = metadataDocument(skill({ description: long, whenToUse: long }));
    expect([...doc.description]).toHaveLength(MAX_CATALOG_DESCRIPTION_CODE_POINTS);
    expect([...doc.whenToUse]).toHaveLength(MAX_CATALOG_DESCRIPTION_CODE_POINTS);
    const bare = metadataDocument(skill({ description: undefined as unknown as string }));
    expect([bare.description, bare.whenToUse, bare.keywords, bare.files]).toEqual(["", "", "", ""]);
  });

  it("lists at most 200 declared file names", () => {
    const resources = Array.from({ length: 250 }, (_, i) => `f${i}.md`);
    expect(metadataDocument(skill({ resources })).files.split("\n")).toEqual(resources.slice(0, 200));
  });

  it("has a digest that follows every field and nothing else", () => {
    const base = metadataDocument(skill());
    expect(metadataDocument(skill()).digest).toBe(base.digest);
    expect(metadataDocument(skill({ description: "Fill PDF forms!" })).digest).not.toBe(base.digest);
    expect(metadataDocument(skill({ whenToUse: "x" })).digest).not.toBe(base.digest);
    expect(metadataDocument(skill({ resources: ["a.md"] })).digest).not.toBe(base.digest);
  });
});

describe("keywordsOf", () => {
  it("takes a keyword or task trigger's keywords and the keywords, tags and triggers authors write in metadata or extra fields", () => {
    expect(keywordsOf(skill({ trigger: { type: "keyword", keywords: ["a1", "b2"] } }))).toEqual(["a1", "b2"]);
    expect(keywordsOf(skill({ trigger: { type: "task", keywords: ["deploy"], inputs: [] } }))).toEqual(["deploy"]);
    expect(keywordsOf(skill({ trigger: { type: "glob", globs: ["*.ts"] } } as unknown as Partial<Skill>))).toEqual([]);
    expect(
      keywordsOf(
        skill({
          metadata: { keywords: "pdf, forms", tags: "acrobat", triggers: "fill", other: "no" },
          extra: { keywords: "extra-kw", tags: ["t1", 7, "t2"], triggers: { not: "a list" }, category: "no" },
        }),
      ),
    ).toEqual(["pdf, forms", "extra-kw", "acrobat", "t1", "t2", "fill"]);
  });

  it("reads a skill without metadata or extra fields", () => {
    const bare = { ...skill(), metadata: undefined } as unknown as Skill;
    expect(keywordsOf(bare)).toEqual([]);
  });
});

describe("headingsOf", () => {
  it("gives the text of ATX headings of levels 1 to 6, up to three spaces in, closing hashes dropped", () => {
    const body = [
      "# Title",
      "text # not a heading",
      "   ### Three in  ",
      "    # four spaces: code",
      "## Closed ##",
      "#\tTabbed",
      "####### seven",
      "#nospace",
      "###### Six",
      "- a list item",
    ].join("\n");
    expect(headingsOf(body)).toEqual(["Title", "Three in", "Closed", "Tabbed", "Six"]);
  });

  it("skips headings inside fenced code (``` or ~~~, up to three spaces in)", () => {
    const body = [
      "# Before",
      "```sh",
      "# a shell comment",
      "```",
      "  ~~~",
      "# in tildes",
      "  ~~~",
      "- use ``` inline, not a fence",
      "# After",
    ].join("\n");
    expect(headingsOf(body)).toEqual(["Before", "After"]);
  });
});

describe("embeddingText", () => {
  it("joins what a skill is for (name, description, when_to_use, keywords, headings), leaving empty fields out", () => {
    const doc = metadataDocument(skill({ trigger: { type: "keyword", keywords: ["acroform"] } }));
    expect(embeddingText(doc)).toBe("pdf forms\nFill PDF forms.\nacroform");
    expect(embeddingText({ ...doc, headings: "Forms", body: "body text", references: "refs" })).toBe(
      "pdf forms\nFill PDF forms.\nacroform\nForms",
    );
  });
});

describe("skillDocument", () => {
  const files = {
    "SKILL.md": "---\nname: pdf-forms\n---\n",
    "references/guide.md": "guide-word",
    "scripts/fill.py": "print()",
  };

  it("reads the body's headings and text, the folder's file names and its prose files", async () => {
    const dir = await folder(files);
    const doc = await skillDocument(skill({ dir, content: "# Forms\n## Fields\nFill them." }));
    expect(doc.headings).toBe("Forms\nFields");
    expect(doc.body).toBe("# Forms\n## Fields\nFill them.");
    expect(doc.files.split("\n").sort()).toEqual(["references/guide.md", "scripts/fill.py"]);
    expect(doc.references).toBe("guide-word\n");
  });

  it("reads no body (nor references) with body: false, no references with references: false, no names with files: false", async () => {
    const dir = await folder(files);
    const noBody = await skillDocument(skill({ dir }), { body: false });
    expect([noBody.body, noBody.headings, noBody.references]).toEqual(["", "", ""]);
    expect(noBody.files).toContain("scripts/fill.py");
    const noRefs = await skillDocument(skill({ dir }), { references: false });
    expect(noRefs.references).toBe("");
    expect(noRefs.body).toBe("# Forms\nFill them.");
    const noFiles = await skillDocument(skill({ dir }), { files: false });
    expect(noFiles.files).toBe("");
    expect(noFiles.references).toBe("guide-word\n");
    const nothing = await skillDocument(skill({ dir }), { files: false, body: false });
    expect([nothing.files, nothing.references, nothing.body]).toEqual(["", "", ""]);
  });

  it("takes declared resources as the file names, and lists nothing for a skill without a folder", async () => {
    const dir = await folder(files);
    const declared = await skillDocument(skill({ dir, resources: ["references/guide.md", "other.md"] }));
    expect(declared.files).toBe("references/guide.md\nother.md");
    expect(declared.references).toBe("guide-word\n");
    const inline = await skillDocument(skill());
    expect([inline.files, inline.references]).toEqual(["", ""]);
    expect(inline.body).toBe("# Forms\nFill them.");
  });

  it("indexes an unreadable body or folder as empty, keeping the metadata", async () => {
    const unreadable = skill({ dir: path.join(tmpdir(), "skillctx-doc-missing-folder") });
    Object.defineProperty(unreadable, "content", {
      get() {
        throw new Error("gone");
      },
    });
    const doc = await skillDocument(unreadable);
    expect([doc.body, doc.files, doc.references]).toEqual(["", "", ""]);
    expect(doc.description).toBe("Fill PDF forms.");
  });
});
