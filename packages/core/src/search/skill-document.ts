import { createHash } from "../crypto-lib.js";
import { listSkillFileNames } from "../fs/skill-files.js";
import { readSkillContent } from "../lazy-content.js";
import { MAX_CATALOG_DESCRIPTION_CODE_POINTS, MAX_INDEXED_BODY_CHARS, MAX_INDEXED_FIELD_CHARS } from "../limits.js";
import type { Skill } from "../skill.js";
import { headCodePoints, headUtf16 } from "../text/cut-text.js";
import { referenceText } from "./reference-text.js";

/** The fields of a skill that search looks at. */
export const SEARCH_FIELDS = [
  "name",
  "description",
  "whenToUse",
  "keywords",
  "headings",
  "body",
  "references",
  "files",
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** What is indexed of one skill: each field as text, capped, and a digest of all of them. */
export interface SkillDocument extends Record<SearchField, string> {
  id: string;
  /** sha256 of the fields: an unchanged skill (same text) is not indexed again, its vector is reused. */
  digest: string;
}

/** Which parts of a skill are read for its document. */
export interface DocumentSources {
  /** Read the body (section headings and text). @default true */
  body?: boolean;
  /** List the skill folder's file names (when the skill declares no `resources`). @default true */
  files?: boolean;
  /** Read the prose files the skill keeps in its folder (`references/*.md`, guides), linked ones first. @default true */
  references?: boolean;
}

// Most file names of one skill indexed: the names say what a skill ships (forms.md, extract_tables.py).
const MAX_FILE_NAMES = 200;

/**
 * The document of `skill`: the body and the reference files are read here (the first time search needs
 * them, never at scan time), and a body that cannot be read is indexed as empty (the skill stays findable by
 * its metadata).
 */
export async function skillDocument(skill: Skill, sources: DocumentSources = {}): Promise<SkillDocument> {
  let body = "";
  if (sources.body !== false) {
    try {
      body = headUtf16(await readSkillContent(skill), MAX_INDEXED_BODY_CHARS);
    } catch {
      // The load path reports an unreadable body when the skill is used; search ranks by metadata alone.
    }
  }
  const readReferences = sources.references !== false && sources.body !== false && skill.dir !== undefined;
  const files = sources.files !== false || readReferences ? await fileNames(skill) : [];
  const references = readReferences ? await referenceText(skill.dir!, body, files) : "";
  return documentOf(skill, body, references, sources.files === false ? [] : files);
}

/** The document of `skill` from its metadata alone (no file read): what search has before the body is read. */
export function metadataDocument(skill: Skill): SkillDocument {
  return documentOf(skill, "", "", skill.resources ?? []);
}

function documentOf(skill: Skill, body: string, references: string, files: readonly string[]): SkillDocument {
  const fields: Record<SearchField, string> = {
    name: skill.name.replace(/[-_.:/]+/g, " "),
    // What the catalog shows of them (the Agent Skills limit): text past it reaches no model, nor the index.
    description: capCatalog(skill.description),
    whenToUse: capCatalog(skill.whenToUse),
    keywords: cap(keywordsOf(skill).join("\n")),
    headings: cap(headingsOf(body).join("\n")),
    body,
    references,
    files: cap(files.slice(0, MAX_FILE_NAMES).join("\n")),
  };
  // One string, hashed at once: the same bytes as a field at a time, with one call into the hash, not seven.
  // Stryker disable next-line StringLiteral: the digest only has to differ when a field does (a constant prefix keeps that)
  let hashed = "";
  for (const field of SEARCH_FIELDS) hashed += `${field}\u0000${fields[field]}\u0000`;
  return { id: skill.name, ...fields, digest: createHash("sha256").update(hashed).digest("hex") };
}

/** Trigger keywords and the keyword-like metadata authors write (`keywords`, `tags`, `triggers`). */
export function keywordsOf(skill: Skill): string[] {
  const found: string[] = [];
  if (skill.trigger.type === "keyword" || skill.trigger.type === "task") found.push(...skill.trigger.keywords);
  for (const key of ["keywords", "tags", "triggers"]) {
    const meta = skill.metadata?.[key];
    if (typeof meta === "string") found.push(meta);
    const extra = skill.extra?.[key];
    if (typeof extra === "string") found.push(extra);
    else if (Array.isArray(extra)) for (const item of extra) if (typeof item === "string") found.push(item);
  }
  return found;
}

/** The text of the markdown headings (`#` to `######`) of `body`, outside fenced code. */
export function headingsOf(body: string): string[] {
  const headings: string[] = [];
  let fence = false;
  for (const line of body.split("\n")) {
    // A line that starts with a letter or a digit (most lines) is neither a fence nor a heading.
    if (ASCII_ALNUM.test(line)) continue;
    if (/^\s{0,3}(```|~~~)/.test(line)) fence = !fence;
    else if (!fence) {
      const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
      if (heading !== null) headings.push(heading[1]!);
    }
  }
  return headings;
}

const ASCII_ALNUM = /^[A-Za-z0-9]/;

async function fileNames(skill: Skill): Promise<string[]> {
  if (skill.resources !== undefined) return skill.resources.slice(0, MAX_FILE_NAMES);
  if (skill.dir === undefined) return [];
  try {
    return (await listSkillFileNames(skill.dir, { max: MAX_FILE_NAMES })).files;
  } catch {
    return [];
  }
}

function capCatalog(text: string | undefined): string {
  return text === undefined ? "" : headCodePoints(text, MAX_CATALOG_DESCRIPTION_CODE_POINTS);
}

function cap(text: string | undefined): string {
  return text === undefined ? "" : headUtf16(text, MAX_INDEXED_FIELD_CHARS);
}

/** What a skill's vector is made of: what it is for, not its whole body. */
export function embeddingText(doc: SkillDocument): string {
  return [doc.name, doc.description, doc.whenToUse, doc.keywords, doc.headings].filter((t) => t !== "").join("\n");
}
