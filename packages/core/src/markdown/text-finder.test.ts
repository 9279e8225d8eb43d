import { describe, expect, test } from "vitest";
import { TextFinder } from "./text-finder.js";

// The finder remembers its last answer per terminator; these pin that the memory never changes an answer,
// whatever order the searches come in (the scanners search forward, but `find`'s contract does not say so).
describe("TextFinder", () => {
  test("find: the first occurrence at or after `from`, searched forward, backward and again", () => {
    const finder = new TextFinder('a"b"c"');
    expect(finder.find('"', 0)).toBe(1);
    expect(finder.find('"', 1)).toBe(1);
    expect(finder.find('"', 2)).toBe(3); // the remembered 1 lies before `from`
    expect(finder.find('"', 4)).toBe(5);
    expect(finder.find('"', 6)).toBe(-1);
    expect(finder.find('"', 7)).toBe(-1); // a remembered failure
    expect(finder.find('"', 2)).toBe(3); // backward after a failure
    expect(finder.find('"', 0)).toBe(1); // backward after a success further on
  });

  test("find: an answer at offset 1 is not reused once `from` has passed it", () => {
    const finder = new TextFinder("<?>x?>");
    expect(finder.find("?>", 1)).toBe(1);
    expect(finder.find("?>", 2)).toBe(4);
    expect(finder.find("?>", 5)).toBe(-1);
  });

  test("find: each terminator has its own memory", () => {
    const finder = new TextFinder("-->?>-->");
    expect(finder.find("-->", 0)).toBe(0);
    expect(finder.find("?>", 0)).toBe(3);
    expect(finder.find("-->", 1)).toBe(5);
    expect(finder.find("?>", 4)).toBe(-1);
  });

  test("match: the first match of a global pattern at or after `from`, in any order", () => {
    const finder = new TextFinder("x</pre> y </PRE>");
    const pattern = /<\/pre>/gi;
    expect(finder.match("end", pattern, 0)).toBe(1);
    expect(finder.match("end", pattern, 1)).toBe(1);
    expect(finder.match("end", pattern, 2)).toBe(10); // the remembered 1 lies before `from`
    expect(finder.match("end", pattern, 11)).toBe(-1);
    expect(finder.match("end", pattern, 12)).toBe(-1);
    expect(finder.match("end", pattern, 3)).toBe(10); // backward after a failure
    expect(finder.match("end", pattern, 0)).toBe(1);
  });

  test("match: an answer at offset 1 is not reused once `from` has passed it", () => {
    const finder = new TextFinder("a</pre>");
    expect(finder.match("end", /<\/pre>/g, 0)).toBe(1);
    expect(finder.match("end", /<\/pre>/g, 2)).toBe(-1);
  });
});
