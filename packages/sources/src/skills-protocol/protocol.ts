/**
 * The wire format of MCP's skills extension (`io.modelcontextprotocol/skills`, SEP-2640; see
 * docs/skills-over-mcp.md): a leaf (it imports nothing of the engine) shared by the server (`skills-mcp/server.ts`) and the client source
 * (`sources/mcp-source.ts`), so both sides read and write exactly one shape. Results are checked with
 * these schemas on the client side: what a server sends is untrusted.
 */
import { lazySchemas } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";

/** The extension's identifier in `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** MIME type of a directory resource (`resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

// The schemas are built through core's zod loader; this module is a schema module, so it builds them
// when it is imported (as `@skillctx/mcp-bridge/schemas` does).
const protocolSchemas = lazySchemas((z) => {
  /** The capability a server declares: `{ extensions: { [SKILLS_EXTENSION]: { directoryRead?: boolean } } }`. */
  const SkillsCapabilitySchema = z.object({ directoryRead: z.boolean().optional() }).loose();

  const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/, "a digest is sha256:<64 lowercase hex>");

  /** One file of a skill: its resource URI and SHA-256 digest (skillctx adds `size` in bytes; clients must not require it). */
  const SkillResourceRefSchema = z
    .object({ uri: z.string().min(1), digest: Digest, size: z.number().int().nonnegative().optional() })
    .loose();

  /** One skill: the URI of its SKILL.md, the frontmatter verbatim as JSON, and every file with its digest. */
  const SkillEntrySchema = z
    .object({
      uri: z.string().min(1),
      frontmatter: z.record(z.string(), z.unknown()),
      /** Complete: every file, SKILL.md included. May be absent for generated skills (skillctx declines them). */
      resources: z.array(SkillResourceRefSchema).optional(),
    })
    .loose();

  const SkillsListRequestSchema = z.object({
    method: z.literal("skills/list"),
    params: z.object({ cursor: z.string().optional() }).loose().optional(),
  });

  const SkillsListResultSchema = z
    .object({
      skills: z.array(SkillEntrySchema),
      nextCursor: z.string().optional(),
      /** SEP-2549 list caching: freshness hint in milliseconds. */
      ttlMs: z.number().int().nonnegative().optional(),
      cacheScope: z.string().optional(),
    })
    .loose();

  const SkillsGetRequestSchema = z.object({
    method: z.literal("skills/get"),
    params: z.object({ uri: z.string() }).loose(),
  });

  const SkillsGetResultSchema = z.object({ skill: SkillEntrySchema }).loose();

  const DirectoryReadRequestSchema = z.object({
    method: z.literal("resources/directory/read"),
    params: z.object({ uri: z.string(), cursor: z.string().optional() }).loose(),
  });

  const DirectoryReadResultSchema = z
    .object({
      resources: z.array(z.object({ uri: z.string(), name: z.string(), mimeType: z.string().optional() }).loose()),
      nextCursor: z.string().optional(),
    })
    .loose();
  return {
    SkillsCapabilitySchema,
    SkillResourceRefSchema,
    SkillEntrySchema,
    SkillsListRequestSchema,
    SkillsListResultSchema,
    SkillsGetRequestSchema,
    SkillsGetResultSchema,
    DirectoryReadRequestSchema,
    DirectoryReadResultSchema,
  };
});
const built = protocolSchemas();

export const SkillsCapabilitySchema = built.SkillsCapabilitySchema;
export const SkillResourceRefSchema = built.SkillResourceRefSchema;
export const SkillEntrySchema = built.SkillEntrySchema;
export const SkillsListRequestSchema = built.SkillsListRequestSchema;
export const SkillsListResultSchema = built.SkillsListResultSchema;
export const SkillsGetRequestSchema = built.SkillsGetRequestSchema;
export const SkillsGetResultSchema = built.SkillsGetResultSchema;
export const DirectoryReadRequestSchema = built.DirectoryReadRequestSchema;
export const DirectoryReadResultSchema = built.DirectoryReadResultSchema;

export type SkillResourceRef = z.infer<typeof SkillResourceRefSchema>;
export type SkillEntry = z.infer<typeof SkillEntrySchema>;
export type SkillsListResult = z.infer<typeof SkillsListResultSchema>;
export type SkillsGetResult = z.infer<typeof SkillsGetResultSchema>;
export type DirectoryReadResult = z.infer<typeof DirectoryReadResultSchema>;

/** `skill://<skill-path>/<file>`: the URI of a file of the skill at `skillPath` (`/`-separated, last segment the name). */
export function skillFileUri(skillPath: string, file: string): string {
  return `skill://${skillPath}/${file}`;
}

/**
 * Splits a skill file URI against its skill's SKILL.md URI: the file's path relative to the skill
 * root, or undefined when the URI is not inside that skill (or climbs out with `..`).
 */
export function relativeSkillFile(skillMdUri: string, fileUri: string): string | undefined {
  if (!skillMdUri.endsWith("/SKILL.md")) return undefined;
  const root = skillMdUri.slice(0, -"SKILL.md".length);
  if (!fileUri.startsWith(root)) return undefined;
  const rest = fileUri.slice(root.length);
  if (rest === "" || rest.split("/").some((part) => part === "" || part === "." || part === "..")) return undefined;
  return rest;
}

/** The skill's name as the URI gives it: the last segment of `<skill-path>` (before `/SKILL.md`). */
export function skillNameOfUri(skillMdUri: string): string | undefined {
  if (!skillMdUri.endsWith("/SKILL.md")) return undefined;
  const parts = skillMdUri.slice(0, -"/SKILL.md".length).split("/");
  const name = parts[parts.length - 1];
  return name === undefined || name === "" || name.includes(":") ? undefined : name;
}
