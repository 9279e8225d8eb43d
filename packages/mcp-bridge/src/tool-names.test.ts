import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_TOOL_NAME_CHARS as MAX_TOOL_NAME } from "@skillctx/core/internal";
import { assignToolNames } from "./tool-names.js";

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

describe("assignToolNames", () => {
  it("keeps valid names as mcp__<server>__<tool>", () => {
    expect(
      assignToolNames([
        { server: "github", tool: "search_issues" },
        { server: "fs", tool: "read-file" },
      ]),
    ).toEqual(["mcp__github__search_issues", "mcp__fs__read-file"]);
  });

  it("reduces other characters to _", () => {
    expect(assignToolNames([{ server: "my server", tool: "files.read/v2" }])).toEqual([
      "mcp__my_server__files_read_v2",
    ]);
    // One _ per code point, astral ones included.
    expect(assignToolNames([{ server: "é", tool: "ツ🙂" }])).toEqual([`mcp__${"_"}__${"__"}`]);
  });

  it("cuts long names to 64 characters with a hash that keeps them apart", () => {
    const tool = "x".repeat(80);
    const [a, b] = assignToolNames([
      { server: "s", tool: `${tool}1` },
      { server: "s", tool: `${tool}2` },
    ]);
    expect(a).toHaveLength(MAX_TOOL_NAME);
    expect(b).toHaveLength(MAX_TOOL_NAME);
    expect(a).not.toBe(b);
    expect(a!.slice(0, 55)).toBe(b!.slice(0, 55));
    expect(a).toMatch(/_[0-9a-f]{8}$/);
  });

  it("hashes the reduced names that collide, keeping an exact name as it is", () => {
    const names = assignToolNames([
      { server: "s", tool: "a.b" },
      { server: "s", tool: "a_b" },
      { server: "s", tool: "a/b" },
    ]);
    expect(names[1]).toBe("mcp__s__a_b");
    expect(names[0]).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(names[2]).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(new Set(names).size).toBe(3);
  });

  it("separates names made ambiguous by __ in a server name", () => {
    const names = assignToolNames([
      { server: "a__b", tool: "c" },
      { server: "a", tool: "b__c" },
    ]);
    expect(names).toContain("mcp__a__b__c");
    expect(new Set(names).size).toBe(2);
  });

  const ref = fc.record({
    server: fc.string({ minLength: 1, maxLength: 40 }),
    tool: fc.string({ minLength: 1, maxLength: 90 }),
  });
  const refs = fc.uniqueArray(ref, { selector: (r) => `${r.server}\0${r.tool}`, maxLength: 30 });

  it("always gives valid, unique names that do not depend on order (property)", () => {
    fc.assert(
      fc.property(refs, fc.nat(), (list, seed) => {
        const names = assignToolNames(list);
        for (const name of names) expect(name).toMatch(VALID);
        expect(new Set(names).size).toBe(names.length);
        const shuffled = list
          .map((r, i) => ({ r, k: (i * 7919 + seed) % (list.length + 1) }))
          .sort((x, y) => x.k - y.k)
          .map((x) => x.r);
        const again = assignToolNames(shuffled);
        shuffled.forEach((r, i) => expect(again[i]).toBe(names[list.indexOf(r)]));
      }),
    );
  });

  it("leaves every short, valid, unambiguous name exact (property)", () => {
    const word = fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ server: word, tool: word }), { selector: (r) => `${r.server}/${r.tool}` }),
        (list) => {
          expect(assignToolNames(list)).toEqual(list.map((r) => `mcp__${r.server}__${r.tool}`));
        },
      ),
    );
  });
});
