// `step.usage`: the tokens each skill adds to a step, by part (catalog entry, guidance, attachments,
// loaded body), checked against core's countTokens over the exact texts; when it is computed (option,
// `step` listener); and the catalog split that attributes entries to skills, for every format and level.
import { describe, expect, it } from "vitest";
import { buildCatalog, countTokens } from "@skillctx/core";
import type { Skill } from "@skillctx/core";
import { catalogEntryTokens, UsageMeter } from "../packages/engine/src/events/usage.js";
import { user, useEngineFixture } from "./helpers/engine-fixture.js";
import { compareCodePoints } from "../packages/core/src/code-point-order.js";

const fixture = useEngineFixture();

const skillMd = (name: string, description: string, body: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;

async function repo() {
  return fixture.repo({
    "AGENTS.md": "# Conventions\n\nRun the tests with pnpm test before every commit.\n",
    ".agents/skills/docker/SKILL.md": skillMd(
      "docker",
      "Builds and runs containers.",
      "Use multi-stage builds and pin base images.",
      "triggers: [docker]\n",
    ),
    ".agents/skills/pdf/SKILL.md": skillMd(
      "pdf",
      "Fills PDF forms & merges them <fast>.",
      "Read the form's fields first, then fill them in order.",
    ),
    ".agents/skills/xlsx/SKILL.md": skillMd(
      "xlsx",
      "Edits spreadsheets.",
      "Keep formulas; never paste values over them.",
    ),
  });
}

describe("step.usage of a session", () => {
  it("attributes the catalog entry, the guidance, the attachments and the loaded body to their skills", async () => {
    const dir = (await repo()).dir;
    const ctx = await fixture.context({ cwd: dir, guidance: true, telemetry: { usage: true } });
    await ctx.buildContext([user("hello")]);
    await ctx.callTool("load_skill", { name: "pdf" });
    const step = await ctx.buildContext([user("hello"), user("and now docker")]);
    const usage = step.usage!;
    expect(usage).toBeDefined();
    const by = new Map(usage.skills.map((u) => [u.skill, u]));
    expect([...by.keys()]).toEqual([...by.keys()].sort(compareCodePoints));

    // Catalog: each listed skill's entry; together with the frame they make the catalog's tokens.
    const catalog = ctx.catalog!;
    const frame = countTokens("<available_skills>\n") + countTokens("</available_skills>");
    expect(["docker", "pdf", "xlsx"].reduce((sum, name) => sum + by.get(name)!.catalog, 0)).toBe(
      catalog.tokens - frame,
    );
    expect(by.get("xlsx")!.catalog).toBe(
      countTokens("<skill>\n<name>xlsx</name>\n<description>Edits spreadsheets.</description>\n</skill>\n"),
    );

    // Guidance: AGENTS.md's text as it stands in system.
    const guidance = usage.skills.find((u) => u.guidance > 0)!;
    expect(guidance.guidance).toBe(countTokens("# Conventions\n\nRun the tests with pnpm test before every commit.\n"));
    expect(step.system).toContain("Run the tests with pnpm test");

    // Attachments: the docker body attached to the new user message.
    const attached = step.attachments.map((a) => a.text);
    expect(attached).toHaveLength(1);
    expect(by.get("docker")!.attachments).toBe(countTokens(attached[0]!));

    // Loaded: the active skill's frozen body.
    expect(ctx.activeSkill).toBe("pdf");
    expect(by.get("pdf")!.loaded).toBe(countTokens(ctx.state.rendered["load:pdf"]!));
    expect(by.get("xlsx")!.loaded).toBe(0);

    for (const u of usage.skills) expect(u.total).toBe(u.catalog + u.guidance + u.attachments + u.loaded);
    expect(usage.total).toBe(usage.skills.reduce((sum, u) => sum + u.total, 0));
  });

  it("an attachment counts in every step its message is present, and not after the message is gone", async () => {
    const ctx = await fixture.context({ cwd: (await repo()).dir, telemetry: { usage: true } });
    const first = user("docker, please");
    const a = await ctx.buildContext([first]);
    const b = await ctx.buildContext([first, user("more")]);
    expect(a.usage!.skills.find((u) => u.skill === "docker")!.attachments).toBeGreaterThan(0);
    expect(b.usage!.skills.find((u) => u.skill === "docker")!.attachments).toBe(
      a.usage!.skills.find((u) => u.skill === "docker")!.attachments,
    );
    const c = await ctx.buildContext([user("unrelated")]);
    expect(c.usage!.skills.find((u) => u.skill === "docker")!.attachments).toBe(0);
  });

  it("is computed with usage: true, or for a step listener; never with usage: false", async () => {
    const dir = (await repo()).dir;
    const none = await fixture.context({ cwd: dir });
    expect((await none.buildContext([user("hi")])).usage).toBeUndefined();

    const listening = await fixture.context({ cwd: dir });
    listening.on("step", () => {});
    expect((await listening.buildContext([user("hi")])).usage).toBeDefined();

    const other = await fixture.context({ cwd: dir });
    other.on("tool.called", () => {});
    expect((await other.buildContext([user("hi")])).usage).toBeUndefined();

    const off = await fixture.context({ cwd: dir, telemetry: { usage: false } });
    const events: unknown[] = [];
    off.on("step", (event) => void events.push(event.usage));
    expect((await off.buildContext([user("hi")])).usage).toBeUndefined();
    expect(events).toEqual([undefined]);
  });
});

describe("catalogEntryTokens", () => {
  const skills = ["alpha", "beta", "gamma", "delta"].map(
    (name, i) =>
      ({
        name,
        description:
          `${name} does thing number ${i}: it reads, writes & checks <files> carefully, then reports back. `.repeat(
            i + 1,
          ),
        trigger: { type: "on-demand" },
        source: { kind: "inline", format: "inline", scope: "programmatic" },
        metadata: {},
      }) as unknown as Skill,
  );

  for (const format of ["xml", "markdown"] as const) {
    it(`${format}: the entries add up to the catalog less its frame, at every level`, () => {
      // Each budget one token under the level before it degrades the catalog one level further.
      const levels = [buildCatalog(skills, { format })];
      for (let i = 0; i < 3; i++) levels.push(buildCatalog(skills, { format, budgetTokens: levels[i]!.tokens - 1 }));
      expect(levels.map((c) => c.level)).toEqual(["full", "short", "names", "partial"]);
      for (const catalog of levels) {
        const tokens = catalogEntryTokens(catalog);
        expect([...tokens.keys()]).toEqual(catalog.included);
        const sum = [...tokens.values()].reduce((a, b) => a + b, 0);
        const more =
          catalog.omitted.length > 0
            ? (catalog.text.match(format === "xml" ? /<more_skills>.*\n/ : /_Skills not listed.*$/)?.[0] ?? "")
            : "";
        const frame = format === "xml" ? countTokens("<available_skills>\n") + countTokens("</available_skills>") : 0;
        expect(sum + countTokens(more) + frame).toBe(catalog.tokens);
        for (const value of tokens.values()) expect(value).toBeGreaterThan(0);
      }
    });
  }

  it("attributes nothing for a text whose entries do not match the listed names", () => {
    const catalog = { ...buildCatalog(skills), text: "something else" };
    expect(catalogEntryTokens(catalog).size).toBe(0);
  });
});

describe("UsageMeter", () => {
  it("counts each text once across steps (cached by the string)", () => {
    const meter = new UsageMeter();
    const body = "A body that stays the same from step to step.";
    const first = meter.measure({
      catalog: undefined,
      guidance: [],
      attachments: [{ skill: "a", text: body }],
      loaded: { skill: "b", body },
    });
    const second = meter.measure({
      catalog: undefined,
      guidance: [],
      attachments: [{ skill: "a", text: body }],
      loaded: { skill: "b", body },
    });
    expect(second).toEqual(first);
    expect(first.skills.map((u) => [u.skill, u.attachments, u.loaded])).toEqual([
      ["a", countTokens(body), 0],
      ["b", 0, countTokens(body)],
    ]);
  });

  it("leaves out skills that add nothing", () => {
    expect(
      new UsageMeter().measure({
        catalog: undefined,
        guidance: [{ name: "empty", text: "" }],
        attachments: [],
        loaded: undefined,
      }),
    ).toEqual({ skills: [], total: 0 });
  });
});
