import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSkills } from "../load-skills.js";
import { createSkillCache } from "../skill-cache.js";
import { skillSchemas } from "../skill.js";
import { isDiagnosticRecord, isScannedSkillMeta } from "./record-check.js";

const FIXTURES = fileURLToPath(new URL("../../../../fixtures/", import.meta.url));

// Every skill the fixtures hold, as a scan keeps it (body empty).
const { skills, diagnostics } = await loadSkills([FIXTURES], { cache: createSkillCache() });
const metas = skills.map((s) => ({ ...s, content: "" }) as Record<string, unknown>);

const MUTATIONS: Array<[string, (m: Record<string, unknown>) => void]> = [
  ["an empty name", (m) => (m["name"] = "")],
  ["a numeric description", (m) => (m["description"] = 3)],
  ["an unknown trigger type", (m) => (m["trigger"] = { type: "sometimes" })],
  ["a keyword trigger without keywords", (m) => (m["trigger"] = { type: "keyword", keywords: [] })],
  ["a path trigger with an empty glob", (m) => (m["trigger"] = { type: "path", globs: [""] })],
  ["a command trigger with another prefix", (m) => (m["trigger"] = { type: "command", prefix: "!" })],
  ["metadata with a number", (m) => (m["metadata"] = { a: 1 })],
  ["allowedTools not a list", (m) => (m["allowedTools"] = "Read")],
  ["an input without a name", (m) => (m["inputs"] = [{ name: "", description: "" }])],
  ["a source of another kind", (m) => (m["source"] = { ...(m["source"] as object), kind: "web" })],
  ["a source without a scope", (m) => (m["source"] = { kind: "file", format: "skill-md" })],
  ["a boolean field as text", (m) => (m["userInvocable"] = "yes")],
  ["mcpServers as a list", (m) => (m["mcpServers"] = [])],
];

describe("the hand check of persisted skill records", () => {
  it("passes every skill of the fixtures, as the zod schema does", () => {
    expect(metas.length).toBeGreaterThan(40);
    const { SkillSchema } = skillSchemas();
    for (const meta of metas) {
      expect(SkillSchema.safeParse(meta).success, String(meta["name"])).toBe(true);
      expect(isScannedSkillMeta(meta), String(meta["name"])).toBe(true);
    }
  });

  it.each(MUTATIONS)("refuses what the zod schema refuses: %s", (_label, mutate) => {
    const { SkillSchema } = skillSchemas();
    for (const meta of metas.slice(0, 10)) {
      const copy = structuredClone(meta);
      mutate(copy);
      expect(SkillSchema.safeParse(copy).success).toBe(false);
      expect(isScannedSkillMeta(copy)).toBe(false);
    }
  });

  it("refuses what the schema lets through but a scan never writes: a body, an unknown key, no metadata", () => {
    const meta = metas[0]!;
    const { metadata: _dropped, ...withoutMetadata } = meta;
    expect(isScannedSkillMeta(withoutMetadata)).toBe(false);
    expect(isScannedSkillMeta({ ...meta, content: "a body" })).toBe(false);
    expect(isScannedSkillMeta({ ...meta, injected: true })).toBe(false);
    expect(isScannedSkillMeta({ ...meta, source: { ...(meta["source"] as object), extra: 1 } })).toBe(false);
  });

  it("passes the fixtures' diagnostics and refuses an unknown code or a bad line", () => {
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const d of diagnostics) expect(isDiagnosticRecord(d), d.code).toBe(true);
    const d = diagnostics[0]!;
    expect(isDiagnosticRecord({ ...d, code: "MADE_UP" })).toBe(false);
    expect(isDiagnosticRecord({ ...d, line: 0 })).toBe(false);
    expect(isDiagnosticRecord({ ...d, path: undefined })).toBe(false);
    expect(path.isAbsolute(FIXTURES)).toBe(true);
  });
});
