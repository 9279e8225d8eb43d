/**
 * defineSkill refuses a zod 3 schema when the skill is made (not at a later tool call), with a typed
 * error naming the zod version the project has installed: zod 4 is a peer dependency of skillctx.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SkillctxError, defineSkill } from "skillctx";
import { put } from "../packages/core/src/testing/temp-dir.js";
import { installedZod, zod3Error } from "../packages/engine/src/code/zod-version.js";
// zod 3's API as zod 4 ships it ("zod/v3"): real zod 3 schemas (no `_zod`), what a zod 3 install gives.
import { z as z3 } from "../packages/core/node_modules/zod/v3/index.js";
import { z } from "./helpers/zod.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function projectWithZod(version: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "skillctx-zod-"));
  made.push(dir);
  await put(dir, "node_modules/zod/package.json", JSON.stringify({ name: "zod", version, main: "index.js" }));
  await put(dir, "node_modules/zod/index.js", "module.exports = {};\n");
  return dir;
}

function thrown(f: () => unknown): SkillctxError {
  try {
    f();
  } catch (error) {
    if (SkillctxError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("did not throw");
}

describe("defineSkill with zod 3 schemas", () => {
  it("refuses a zod 3 input schema with ZOD_VERSION_UNSUPPORTED, naming the field and the zod found", () => {
    const error = thrown(() =>
      defineSkill({
        name: "cart",
        description: "Keeps a cart.",
        instructions: "Add items.",
        tools: {
          add: { description: "Add", inputSchema: z3.object({ item: z3.string() }) as never, execute: () => "" },
        },
      }),
    );
    expect(error.code).toBe("ZOD_VERSION_UNSUPPORTED");
    expect(error.message).toContain('defineSkill "cart": tools.add.inputSchema is a zod 3 schema');
    expect(error.message).toContain("zod@^4.0.0");
    // This repository resolves zod 4 from its root: the schema must then come from "zod/v3".
    const found = installedZod(process.cwd());
    expect(found?.version).toMatch(/^4\./);
    expect(error.message).toContain(`zod ${found!.version} is installed`);
    expect(error.data).toMatchObject({ skill: "cart", field: "tools.add.inputSchema", zodVersion: found!.version });
  });

  it("refuses a zod 3 state schema the same way", () => {
    const error = thrown(() =>
      defineSkill({
        name: "counter",
        description: "Counts.",
        instructions: "Count.",
        state: { schema: z3.object({ n: z3.number() }) as never, initial: { n: 0 } },
      }),
    );
    expect(error.code).toBe("ZOD_VERSION_UNSUPPORTED");
    expect(error.data).toMatchObject({ field: "state.schema" });
  });

  it("names a zod 3 install of the project, and says how to get zod 4", async () => {
    const dir = await projectWithZod("3.24.2");
    expect(installedZod(dir)).toEqual({ version: "3.24.2", dir: path.join(dir, "node_modules", "zod") });
    const error = zod3Error("cart", "state.schema", dir);
    expect(error.message).toContain("zod 3.24.2 is installed");
    expect(error.message).toContain("npm install zod@^4.0.0");
    expect(error.data).toMatchObject({ zodVersion: "3.24.2" });
  });

  it("says when no zod resolves at all", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillctx-nozod-"));
    made.push(dir);
    // The temp folder's parents hold no node_modules with zod.
    expect(installedZod(dir)).toBeUndefined();
    const error = zod3Error("cart", "state.schema", dir);
    expect(error.message).toContain(`no zod package resolves from ${dir}`);
    expect(error.data).toMatchObject({ zodVersion: null });
  });

  it("accepts zod 4 schemas as before", () => {
    const skill = defineSkill({
      name: "ok",
      description: "Fine.",
      instructions: "Go.",
      state: { schema: z.object({ n: z.number() }), initial: { n: 0 } },
      tools: { add: { description: "Add", inputSchema: z.object({ n: z.number() }), execute: () => "" } },
    });
    expect(skill.name).toBe("ok");
  });
});
