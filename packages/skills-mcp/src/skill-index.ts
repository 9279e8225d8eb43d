/**
 * The snapshot a skill server serves: every SKILL.md folder of a skill set, read once through core's
 * `listSkillFiles` (containment, special files never opened, caps, digests), with its SEP-2640 entry
 * and a URI → file map. Requests are answered from this snapshot only: no URI is ever turned into a
 * file-system path, so `..`, encoded separators or symlinks in a request cannot reach a file the
 * snapshot does not hold, and the bytes served are exactly the bytes the digests were computed over.
 */
import { DEFAULT_MAX_SERVED_BYTES } from "./limits.js";
import { createHash } from "@skillctx/core/internal";
import path from "node:path";
import { compareCodePoints, diagnostic } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import { listSkillFiles, toPosix } from "@skillctx/core/internal";
import { skillFrontmatterJson } from "@skillctx/sources/protocol";
import { fileContent } from "./mime.js";
import { DIRECTORY_MIME_TYPE } from "@skillctx/sources/protocol";
import type { SkillEntry } from "@skillctx/sources/protocol";

/** One file of a served skill. */
export interface ServedFile {
  uri: string;
  /** Relative to the skill folder, `/`-separated, as on disk. */
  path: string;
  size: number;
  digest: string;
  mimeType: string;
  /** The text of a UTF-8 text file. */
  text?: string;
  /** The bytes of any other file (served as a base64 blob). */
  bytes?: Buffer;
}

/** One served skill. */
export interface ServedSkill {
  name: string;
  /** `<skill-path>`: the URI path of the skill's root, its last segment the name. */
  skillPath: string;
  /** `skill://<skill-path>/SKILL.md`. */
  uri: string;
  description: string;
  dir: string;
  scope: Skill["source"]["scope"];
  files: ServedFile[];
  /** The `skills/list` / `skills/get` entry. */
  entry: SkillEntry;
  /** Length of the entry as JSON: pages of `skills/list` are bounded by it. */
  entryBytes: number;
}

/** A child of a directory resource (`resources/directory/read`). */
export type DirectoryChild = {
  uri: string;
  name: string;
  mimeType: string;
};

/** What a skill server answers from. */
export interface ServedSkillIndex {
  /** In code-point order of `uri`. */
  skills: ServedSkill[];
  /** Skill by the URI of its SKILL.md. */
  byUri: ReadonlyMap<string, ServedSkill>;
  /** Skills by name, and by skill path (the name the tools take when names clash). */
  byName: ReadonlyMap<string, ServedSkill[]>;
  /** Every file by URI. */
  files: ReadonlyMap<string, ServedFile>;
  /** Every directory resource (skill roots, their folders, organisational prefixes) → its direct children. */
  directories: ReadonlyMap<string, DirectoryChild[]>;
  /**
   * A digest of the served entries (every file's digest included): changes whenever what is served does,
   * and is the same on every replica serving the same files. Cursors of an older snapshot are refused.
   */
  generation: string;
  /** Why skills were not served, and path qualifications. */
  diagnostics: Diagnostic[];
}

export interface BuildSkillIndexOptions {
  /** @default DEFAULT_MAX_SERVED_BYTES (256 MiB) */
  maxTotalBytes?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** `skill://` plus a `/`-separated path. */
export const SKILL_SCHEME = "skill://";

/**
 * Reads the SKILL.md folders of `skills` into a {@link ServedSkillIndex}. Served: file skills in the Agent
 * Skills format (`SKILL.md` folders) whose frontmatter has a string `name` equal to the skill's name
 * and usable as a URI segment, and a string `description`; whose folder lists completely within the
 * caps. Everything else is an `info` (`SKILL_NOT_SERVED`: guidance files, single-file and legacy
 * skills, skills made in code, remote skills) or `warning` (a served kind that failed a check)
 * diagnostic naming why. Never throws, except on abort.
 */
export async function buildSkillIndex(
  skills: readonly Skill[],
  options: BuildSkillIndexOptions = {},
): Promise<ServedSkillIndex> {
  const diagnostics: Diagnostic[] = [];
  const budget = options.maxTotalBytes ?? DEFAULT_MAX_SERVED_BYTES;
  let total = 0;
  const candidates: Array<{ skill: Skill; dir: string; file: string }> = [];
  for (const skill of skills) {
    const reason = notServedReason(skill);
    if (reason !== undefined) {
      diagnostics.push(
        diagnostic("SKILL_NOT_SERVED", "info", `${skill.name} is not served: ${reason}`, { path: skill.source.path }),
      );
      continue;
    }
    candidates.push({ skill, dir: skill.dir!, file: skill.source.path! });
  }
  // Enclosing folders first, so a nested skill finds its parent's path; then by name, for stable paths.
  candidates.sort(
    (a, b) =>
      depth(a.dir) - depth(b.dir) || compareCodePoints(a.skill.name, b.skill.name) || compareCodePoints(a.dir, b.dir),
  );

  const served: ServedSkill[] = [];
  const tree = new UriTree();
  for (const { skill, dir, file } of candidates) {
    options.signal?.throwIfAborted();
    const skip = (message: string) =>
      void diagnostics.push(
        diagnostic("SKILL_NOT_SERVED", "warning", `${skill.name} is not served: ${message}`, { path: file }),
      );
    const listing = await listSkillFiles(dir, {
      containRoot: dir,
      withBytes: true,
      maxTotalBytes: Math.max(0, budget - total),
      signal: options.signal,
    });
    if (!listing.complete) {
      const why = listing.diagnostics.filter((d) => d.severity !== "info").map((d) => d.message);
      skip(
        `its folder could not be read completely within the caps (${why.slice(0, 3).join("; ") || "a cap was reached"})`,
      );
      continue;
    }
    const skillMd = listing.files.find((f) => f.path === "SKILL.md");
    const skillMdText = skillMd?.bytes === undefined ? undefined : fileContent("SKILL.md", skillMd.bytes).text;
    if (skillMdText === undefined) {
      skip("its SKILL.md is not a UTF-8 text file in the folder");
      continue;
    }
    const parsed = skillFrontmatterJson(skillMdText, { path: file });
    if (!parsed.ok) {
      skip(`its frontmatter cannot be read (${parsed.message})`);
      continue;
    }
    const { name, description } = parsed.frontmatter;
    if (name !== skill.name) {
      skip(
        `the frontmatter name ${JSON.stringify(name)} is not the skill's name (SEP-2640: the URI's last segment is the frontmatter name)`,
      );
      continue;
    }
    if (!isUriSegment(skill.name)) {
      skip(`its name cannot be a URI path segment (letters, digits, '.', '_', '-'; not '.' or '..')`);
      continue;
    }
    if (typeof description !== "string" || description.trim() === "") {
      skip("its frontmatter has no description (SEP-2640 requires name and description)");
      continue;
    }
    const skillPath = choosePath(skill, dir, served, tree, diagnostics, file);
    const files: ServedFile[] = listing.files.map((f) => {
      const content = fileContent(f.path, f.bytes!);
      const one: ServedFile = {
        uri: fileUri(skillPath, f.path),
        path: f.path,
        size: f.size,
        digest: f.digest,
        mimeType: content.mimeType,
      };
      if (content.text !== undefined) one.text = content.text;
      else one.bytes = f.bytes!;
      return one;
    });
    total += files.reduce((sum, f) => sum + f.size, 0);
    const uri = `${SKILL_SCHEME}${skillPath}/SKILL.md`;
    const entry: SkillEntry = {
      uri,
      frontmatter: parsed.frontmatter,
      resources: files.map((f) => ({ uri: f.uri, digest: f.digest, size: f.size })),
    };
    const one: ServedSkill = {
      name: skill.name,
      skillPath,
      uri,
      description,
      dir,
      scope: skill.source.scope,
      files,
      entry,
      entryBytes: JSON.stringify(entry).length,
    };
    tree.addSkill(one);
    served.push(one);
  }
  served.sort((a, b) => compareCodePoints(a.uri, b.uri));
  return indexOf(served, tree, diagnostics);
}

/** Why a skill of the set is not served, or undefined when it is a SKILL.md folder. */
function notServedReason(skill: Skill): string | undefined {
  if (skill.source.scope === "remote") {
    return `it comes from the remote source ${JSON.stringify(skill.source.origin ?? "?")}; serving it again would hide its origin`;
  }
  if (skill.source.format === "guidance")
    return "it is repository guidance, not a SKILL.md folder (SEP-2640 serves Agent Skills folders)";
  if (skill.source.kind !== "file" || skill.source.path === undefined) {
    return skill.source.kind === "inline"
      ? "it is made in code (no folder of files to serve)"
      : "it is a compatibility entry, not a skill folder";
  }
  if (
    skill.source.format !== "skill-md" ||
    path.basename(skill.source.path) !== "SKILL.md" ||
    skill.dir === undefined
  ) {
    return `it is a ${skill.source.format} file, not a SKILL.md folder (SEP-2640 serves Agent Skills folders)`;
  }
  return undefined;
}

// A skill's path: inside its enclosing served skill's namespace when it is nested in that folder under
// its own name; else its name; on a clash `<scope>/<name>`, then `<scope>-<n>/<name>`.
function choosePath(
  skill: Skill,
  dir: string,
  served: readonly ServedSkill[],
  tree: UriTree,
  diagnostics: Diagnostic[],
  file: string,
): string {
  const parent = served.filter((s) => dir.startsWith(s.dir + path.sep)).sort((a, b) => b.dir.length - a.dir.length)[0];
  if (parent !== undefined && path.basename(dir) === skill.name) {
    const relative = toPosix(path.relative(parent.dir, dir)).split("/").map(encodeSegment).join("/");
    const nested = `${parent.skillPath}/${relative}`;
    if (!tree.hasSkillRoot(nested)) return nested;
  }
  const candidates = [skill.name, `${skill.source.scope}/${skill.name}`];
  for (let n = 2; n < 1_000; n++) candidates.push(`${skill.source.scope}-${n}/${skill.name}`);
  for (const candidate of candidates) {
    if (!tree.isFree(candidate)) continue;
    if (candidate !== skill.name) {
      diagnostics.push(
        diagnostic(
          "SKILL_PATH_QUALIFIED",
          "info",
          `${skill.name} is served as skill://${candidate}/SKILL.md: skill://${skill.name} is taken`,
          { path: file },
        ),
      );
    }
    return candidate;
  }
  // 1,000 same-named skills of one scope: a path with the folder's digest-free position is still unique.
  return `${skill.source.scope}-${served.length}/${skill.name}`;
}

/** The URI of `relative` (a `/`-separated file path) in the skill at `skillPath`, each segment percent-encoded. */
export function fileUri(skillPath: string, relative: string): string {
  return `${SKILL_SCHEME}${skillPath}/${relative.split("/").map(encodeSegment).join("/")}`;
}

// encodeURIComponent leaves letters, digits and -_.!~*'() alone: most file names go through unchanged.
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment);
}

function isUriSegment(name: string): boolean {
  return name.length <= 255 && name !== "." && name !== ".." && /^[A-Za-z0-9._-]+$/.test(name);
}

function depth(dir: string): number {
  return dir.split(path.sep).length;
}

/** The URI tree: which paths are skill roots, folders inside skills, files, or organisational prefixes. */
class UriTree {
  /** URI path (after `skill://`) → kind. */
  readonly nodes = new Map<string, "root" | "dir" | "file" | "prefix">();
  readonly children = new Map<string, Map<string, DirectoryChild>>();

  /** Whether a top-level (not nested) skill may take `candidate`: nothing there, and no ancestor inside a skill. */
  isFree(candidate: string): boolean {
    if (this.nodes.has(candidate)) return false;
    const parts = candidate.split("/");
    for (let i = 1; i < parts.length; i++) {
      const kind = this.nodes.get(parts.slice(0, i).join("/"));
      if (kind !== undefined && kind !== "prefix") return false;
    }
    return true;
  }

  hasSkillRoot(candidate: string): boolean {
    return this.nodes.get(candidate) === "root";
  }

  addSkill(skill: ServedSkill): void {
    const rootParts = skill.skillPath.split("/");
    // Organisational prefixes above a top-level skill's root; a nested skill's are its parent's folders.
    for (let i = 1; i < rootParts.length; i++) {
      const prefix = rootParts.slice(0, i).join("/");
      if (!this.nodes.has(prefix)) this.nodes.set(prefix, "prefix");
      if (i > 1) this.link(rootParts.slice(0, i - 1).join("/"), prefix, DIRECTORY_MIME_TYPE);
    }
    if (rootParts.length > 1) this.link(rootParts.slice(0, -1).join("/"), skill.skillPath, DIRECTORY_MIME_TYPE);
    this.nodes.set(skill.skillPath, "root");
    if (!this.children.has(skill.skillPath)) this.children.set(skill.skillPath, new Map());
    for (const file of skill.files) {
      const parts = file.uri.slice(SKILL_SCHEME.length).split("/");
      for (let i = rootParts.length + 1; i < parts.length; i++) {
        const folder = parts.slice(0, i).join("/");
        if (!this.nodes.has(folder)) this.nodes.set(folder, "dir");
        this.link(parts.slice(0, i - 1).join("/"), folder, DIRECTORY_MIME_TYPE);
      }
      const at = file.uri.slice(SKILL_SCHEME.length);
      if (!this.nodes.has(at) || this.nodes.get(at) === "dir") this.nodes.set(at, "file");
      this.link(parts.slice(0, -1).join("/"), at, file.mimeType);
    }
  }

  private link(parent: string, child: string, mimeType: string): void {
    let set = this.children.get(parent);
    if (set === undefined) this.children.set(parent, (set = new Map()));
    if (!set.has(child))
      set.set(child, {
        uri: `${SKILL_SCHEME}${child}`,
        name: decodeURIComponent(child.slice(child.lastIndexOf("/") + 1)),
        mimeType,
      });
  }
}

function indexOf(served: ServedSkill[], tree: UriTree, diagnostics: Diagnostic[]): ServedSkillIndex {
  const byUri = new Map<string, ServedSkill>();
  const byName = new Map<string, ServedSkill[]>();
  const files = new Map<string, ServedFile>();
  for (const skill of served) {
    byUri.set(skill.uri, skill);
    byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill]);
    if (skill.skillPath !== skill.name) byName.set(skill.skillPath, [skill]);
    for (const file of skill.files) if (!files.has(file.uri)) files.set(file.uri, file);
  }
  const directories = new Map<string, DirectoryChild[]>();
  for (const [dir, children] of tree.children) {
    directories.set(
      `${SKILL_SCHEME}${dir}`,
      [...children.values()].sort((a, b) => compareCodePoints(a.uri, b.uri)),
    );
  }
  // From the content, not chance: replicas serving the same files agree, so a cursor made by one is
  // honoured by another behind a load balancer; any change to a served entry (a digest) changes it.
  const hash = createHash("sha256");
  for (const skill of served) hash.update(JSON.stringify(skill.entry)).update("\n");
  const generation = hash.digest("hex").slice(0, 24);
  return { skills: served, byUri, byName, files, directories, generation, diagnostics };
}
