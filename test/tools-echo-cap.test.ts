import { describe, expect, it } from "vitest";
import { useEngineFixture } from "./helpers/engine-fixture.js";

const SKILL = "---\nname: notes\ndescription: Keep notes.\n---\nWrite notes.\n";

describe("model-sent names quoted back in error results", () => {
  const fixture = useEngineFixture();

  it("are cut at 200 characters, so a 1 MiB made-up name does not come back as a 1 MiB error", async () => {
    const repo = await fixture.repo({ ".agents/skills/notes/SKILL.md": SKILL });
    const ctx = await fixture.context({ cwd: repo.dir });
    const huge = "x".repeat(1 << 20);
    const tool = await ctx.callTool(huge, {});
    expect(tool.isError).toBe(true);
    expect(tool.content.startsWith(`Unknown tool "${"x".repeat(200)}…". Available tools: `)).toBe(true);
    expect(tool.content.length).toBeLessThan(1_000);
    const skill = await ctx.callTool("load_skill", { name: huge });
    expect(skill.isError).toBe(true);
    expect(skill.content).toBe(`Unknown skill "${"x".repeat(200)}…". Available skills: notes.`);
  });

  it("keeps short names whole, quoted as JSON (a quote or a newline in the name cannot break the message)", async () => {
    const repo = await fixture.repo({ ".agents/skills/notes/SKILL.md": SKILL });
    const ctx = await fixture.context({ cwd: repo.dir });
    const result = await ctx.callTool('evil"\nname', {});
    expect(result.content.startsWith('Unknown tool "evil\\"\\nname". Available tools: ')).toBe(true);
  });
});
