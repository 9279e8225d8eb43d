/**
 * Adversarial tests of the reading rules of issue 24 (docs/conventions.md "Rules"): a symlink bridge out
 * of the repository, an `.agents/skills` loop between cwd and the root under a very deep cwd, Cline's
 * excluded folders pointing at `/` and full of files, a flood of dot-folder guidance, URL mentions by
 * the thousand, hostile root markers, and a sibling-rule base that must not reach outside the project.
 * Each runs in a fresh process (runIsolated); each test's name states its bound.
 */
import { describe, expect } from "vitest";
import { itWithTool } from "../helpers/tools-present.js";
import { expectBounded, repoPrelude, runIsolated, withPackageSources } from "./isolated.js";

const PRELUDE = repoPrelude("skillctx-adv-peers-");
const source = withPackageSources;

describe("adversarial: issue 24 reading rules", () => {
  itWithTool("git")(
    "a CLAUDE.md symlink bridge and an @AGENTS.md whose target leaves the repository read nothing outside (< 20 s, < 400 MB)",
    async () => {
      const result = await runIsolated<{ leaked: boolean; codes: string[] }>(
        source(`${PRELUDE}
import { loadGuidance } from "@skillctx-src/compat";
export default async () => {
  writeFileSync(path.join(parent, "secret.md"), "TOP-SECRET-OUTSIDE\\n");
  symlinkSync(path.join(parent, "secret.md"), path.join(repo, "CLAUDE.md"));
  symlinkSync(path.join(parent, "secret.md"), path.join(repo, "AGENTS.md"));
  put("pkg/CLAUDE.md", "@AGENTS.md\\n@../AGENTS.md\\n");
  symlinkSync("../../secret.md", path.join(repo, "pkg/AGENTS.md"));
  gitInit();
  const { skills, diagnostics } = await loadGuidance(path.join(repo, "pkg"), { model: "claude-sonnet-4-5" });
  const leaked = skills.some((s) => s.content.includes("TOP-SECRET-OUTSIDE"));
  return done({ leaked, codes: [...new Set(diagnostics.map((d) => d.code))].sort() });
};`),
        { timeoutMs: 60_000 },
      );
      const value = expectBounded(result, { ms: 20_000, mb: 400 }, "symlink bridge out of the repository");
      expect(value.leaked).toBe(false);
      expect(value.codes).toContain("GUIDANCE_OUTSIDE_REPOSITORY");
    },
  );

  itWithTool("git")(
    "an .agents/skills loop at every level of a 300-deep cwd, and a self-loop between cwd and root, load once (< 20 s, < 500 MB)",
    async () => {
      const result = await runIsolated<{ names: string[]; ms: number }>(
        source(`${PRELUDE}
import { discoverSkills } from "@skillctx-src/core";
export default async () => {
  put(".agents/skills/root/SKILL.md", "---\\nname: root\\ndescription: root skill\\n---\\nx\\n");
  let dir = "";
  for (let i = 0; i < 300; i++) {
    dir = dir === "" ? "d" : dir + "/d";
    if (i % 50 === 0) {
      mkdirSync(path.join(repo, dir, ".agents"), { recursive: true });
      // Each level's skills folder is a link back to the level above: a loop between cwd and the root.
      symlinkSync("../..", path.join(repo, dir, ".agents/skills"));
    }
  }
  mkdirSync(path.join(repo, dir), { recursive: true });
  put(dir + "/.agents/skills/deep/SKILL.md", "---\\nname: deep\\ndescription: deep skill\\n---\\nx\\n");
  gitInit();
  const started = Date.now();
  const { skills } = await discoverSkills({ cwd: path.join(repo, dir) });
  return done({ names: [...new Set(skills.map((s) => s.name))].sort(), ms: Date.now() - started });
};`),
        { timeoutMs: 60_000 },
      );
      const value = expectBounded(result, { ms: 20_000, mb: 500 }, ".agents/skills loops between cwd and root");
      expect(value.names).toContain("deep");
      expect(value.names).toContain("root");
    },
  );

  itWithTool("git")(
    "Cline's workflows/ and hooks/ pointing at / and holding 2,000 files are never walked (< 10 s, < 300 MB)",
    async () => {
      const result = await runIsolated<{ content: string; excluded: number }>(
        source(`${PRELUDE}
import { loadGuidance } from "@skillctx-src/compat";
export default async () => {
  put(".clinerules/general.md", "Use pnpm.\\n");
  symlinkSync("/", path.join(repo, ".clinerules/workflows"));
  for (let i = 0; i < 2000; i++) put(".clinerules/hooks/h" + i + ".md", "hook " + i + "\\n");
  gitInit();
  const { skills, diagnostics } = await loadGuidance(repo);
  return done({ content: skills.map((s) => s.content).join(""), excluded: diagnostics.filter((d) => d.code === "GUIDANCE_EXCLUDED").length });
};`),
        { timeoutMs: 60_000 },
      );
      const value = expectBounded(result, { ms: 10_000, mb: 300 }, "Cline excluded folders");
      expect(value.content).toContain("Use pnpm.");
      expect(value.content).not.toContain("hook 1");
      // hooks/ is named once; workflows/ (a link out of the project) is not even followed.
      expect(value.excluded).toBeGreaterThanOrEqual(1);
    },
  );

  itWithTool("git")(
    "1,000 dot-folder CLAUDE.md files and 2,000 URL mentions stay bounded and import nothing (< 30 s, < 600 MB)",
    async () => {
      const result = await runIsolated<{ rules: number; imported: boolean }>(
        source(`${PRELUDE}
import { loadGuidance } from "@skillctx-src/compat";
export default async () => {
  for (let i = 0; i < 1000; i++) put(".github/w" + i + "/CLAUDE.md", "rule " + i + "\\n");
  put("https:/evil.example/x.md", "FETCHED-AS-FILE\\n");
  put("GEMINI.md", Array.from({ length: 2000 }, (_, i) => "@https://evil.example/x.md @file:///etc/passwd " + i).join("\\n") + "\\n");
  gitInit();
  gitAdd();
  const { skills } = await loadGuidance(repo, { model: "gemini-2.5-pro" });
  const gemini = skills.find((s) => s.name === "gemini");
  return done({ rules: skills.filter((s) => s.trigger.type === "path").length, imported: (gemini?.content ?? "").includes("FETCHED-AS-FILE") || (gemini?.content ?? "").includes("root:") });
};`),
        { timeoutMs: 90_000 },
      );
      const value = expectBounded(result, { ms: 30_000, mb: 600 }, "dot-folder flood and URL mentions");
      expect(value.imported).toBe(false);
      expect(value.rules).toBe(0); // Gemini model: CLAUDE.md path rules are Claude's
    },
  );

  itWithTool("git")(
    "hostile root markers and a sibling-rule base never reach outside the project (< 15 s, < 300 MB)",
    async () => {
      const result = await runIsolated<{ roots: string[]; outside: string[]; sibling: string[] }>(
        source(`${PRELUDE}
import { loadGuidance } from "@skillctx-src/compat";
import { createPathMatcher } from "@skillctx-src/core";
export default async () => {
  writeFileSync(path.join(parent, "AGENTS.md"), "PARENT-OUTSIDE\\n");
  put("AGENTS.md", "root\\n");
  put(".cursor/rules/web.mdc", "---\\nglobs: apps/web/**\\n---\\nweb rule\\n");
  mkdirSync(path.join(repo, "apps/api"), { recursive: true });
  gitInit();
  const roots = [];
  for (const markers of [["..", "../..", "/", "repo/.."], ["../AGENTS.md"], [""]]) {
    const { skills } = await loadGuidance(path.join(repo, "apps/api"), { rootMarkers: markers });
    roots.push(skills.map((s) => s.content).join("|"));
  }
  const { skills } = await loadGuidance(path.join(repo, "apps/api"));
  const matcher = createPathMatcher(skills);
  const cwd = path.join(repo, "apps/api");
  const outside = matcher.match(["/etc/passwd", path.join(parent, "apps/web/x.ts"), "../../../apps/web/x.ts"], cwd).map((m) => m.skill);
  const sibling = matcher.match([path.join(repo, "apps/web/src/a.ts")], cwd).map((m) => m.skill);
  return done({ roots, outside, sibling });
};`),
        { timeoutMs: 60_000 },
      );
      const value = expectBounded(result, { ms: 15_000, mb: 300 }, "root markers and sibling-rule base");
      for (const seen of value.roots) expect(seen).not.toContain("PARENT-OUTSIDE");
      expect(value.outside).toEqual([]);
      expect(value.sibling).toEqual(["cursor:web"]);
    },
  );
});
