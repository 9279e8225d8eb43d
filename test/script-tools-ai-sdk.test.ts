// Needs python3: every test is inside describeWithTool("python3"), skipped with a one-line note where python3
// is not on PATH (test/setup/tools.ts); uv is never required.
// End to end with the AI SDK's scripted model (generateText + createAiSdkLoop): a skill folder's Python
// script with a typed main() is offered as a typed tool after load_skill and called with real python3;
// a script whose main() uses a type JSON Schema cannot express is not offered, and stays on run_skill_script.
import { expect, it } from "vitest";
import { createAiSdkLoop } from "skillctx/ai-sdk";
import type { Diagnostic } from "@skillctx/core";
import type { SkillctxEvent } from "skillctx";
import { put } from "../packages/core/src/testing/temp-dir.js";
import { useEngineFixture } from "./helpers/engine-fixture.js";
import { scriptedModel, toolNames, toolResults } from "./helpers/scripted-model.js";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import { describeWithTool } from "./helpers/tools-present.js";

const ai = skillctxDependency<typeof import("ai")>("ai");
const fixture = useEngineFixture();

const GREET = `"""Greeting helpers."""
from typing import Literal


def main(name: str, times: int = 1, style: Literal["plain", "loud"] = "plain") -> dict:
    """Greets someone.

    Args:
        name: Who to greet.
        times: How many greetings.
    """
    text = ("HELLO " if style == "loud" else "hello ") + name
    return {"greetings": [text] * times}
`;
const LEGACY = `import pathlib


def main(path: pathlib.Path) -> str:
    """Reads a file."""
    return path.read_text()
`;

async function skillFolder(root: string, dir: string): Promise<void> {
  await put(
    root,
    `${dir}/SKILL.md`,
    "---\nname: greeter\ndescription: Greets people. Use to greet someone.\n---\nCall greet.\n",
  );
  await put(root, `${dir}/scripts/greet.py`, GREET);
  await put(root, `${dir}/scripts/legacy.py`, LEGACY);
}

describeWithTool("python3")("typed script tools in an AI SDK loop", () => {
  it("offers greet after load_skill, calls main() with real python3, refuses invalid arguments, and leaves legacy.py on run_skill_script", async () => {
    const repo = await fixture.repo();
    await skillFolder(repo.dir, "skills/greeter");
    const events: SkillctxEvent[] = [];
    const ctx = await fixture.context({
      cwd: repo.dir,
      skills: [`${repo.dir}/skills`],
      telemetry: {
        onEvent: (event) => void events.push(event),
      },
    });
    const { model, calls } = scriptedModel([
      { calls: [["load_skill", { name: "greeter" }]] },
      { calls: [["greet", { name: "Ada", times: 2, style: "loud" }]] },
      { calls: [["greet", { name: "Ada", times: "many" }]] },
      { calls: [["legacy", { path: "/etc/hostname" }]] },
      { calls: [["run_skill_script", { name: "greeter", script: "legacy.py" }]] },
      { text: "Greeted." },
    ]);
    const diagnostics: Diagnostic[] = [];
    const loop = createAiSdkLoop(ctx, { onStep: (step) => void diagnostics.push(...step.diagnostics) });
    const result = await ai.generateText({ model, ...loop, stopWhen: ai.stepCountIs(10), prompt: "greet Ada" });
    expect(result.text).toBe("Greeted.");
    expect(toolNames(calls[0]!)).not.toContain("greet");
    expect(toolNames(calls[1]!)).toContain("greet");
    expect(toolNames(calls[1]!)).not.toContain("legacy");
    expect(calls[1]!.tools!.find((tool) => tool.name === "greet")).toMatchObject({
      description: "Greets someone.",
      inputSchema: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string", description: "Who to greet." },
          times: { type: "integer", default: 1, description: "How many greetings." },
          style: { enum: ["plain", "loud"], type: "string", default: "plain" },
        },
      },
    });
    const results = toolResults(calls[5]!);
    expect(results[1]).toEqual({ toolName: "greet", type: "text", value: '{"greetings":["HELLO Ada","HELLO Ada"]}' });
    // times: "many" fails the schema before python runs.
    expect(results[2]).toMatchObject({
      toolName: "greet",
      type: "error-text",
      value: expect.stringContaining('Invalid arguments for "greet"'),
    });
    expect(results[3]).toMatchObject({ toolName: "legacy", type: "error-text" });
    // legacy.py is not a typed tool, but run_skill_script still runs it as a file (it defines main() and prints nothing).
    expect(results[4]).toMatchObject({ toolName: "run_skill_script", type: "text" });
    const finished = events.filter((event) => event.type === "script.finished");
    expect(finished).toEqual([
      expect.objectContaining({
        skill: "greeter",
        script: "scripts/greet.py",
        exitCode: 0,
        truncated: false,
        timedOut: false,
      }),
      expect.objectContaining({ skill: "greeter", script: "scripts/legacy.py", exitCode: 0 }),
    ]);
    expect(
      diagnostics.some(
        (d) => d.code === "SCRIPT_UNSUPPORTED_TYPE" && d.message.includes("parameter path: pathlib.Path"),
      ),
    ).toBe(true);
  });

  it("an untrusted project skill's typed tool is offered but refused with how to trust it", async () => {
    const repo = await fixture.repo();
    await skillFolder(repo.dir, ".agents/skills/greeter");
    const ctx = await fixture.context({ cwd: repo.dir });
    const { model, calls } = scriptedModel([
      { calls: [["load_skill", { name: "greeter" }]] },
      { calls: [["greet", { name: "Ada" }]] },
      { text: "Could not." },
    ]);
    await ai.generateText({ model, ...createAiSdkLoop(ctx), stopWhen: ai.stepCountIs(5), prompt: "greet Ada" });
    const refused = toolResults(calls[2]!)[1];
    expect(refused).toMatchObject({ toolName: "greet", type: "error-text" });
    expect(refused!.value).toContain("trust: { project: true }");
  });
});
