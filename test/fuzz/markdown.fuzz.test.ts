// Fuzz: core's markdown scanner (blocks, code regions, inline tokens) and the @import mentions it guards.
import { afterAll, expect, it } from "vitest";
import { importMentions } from "../../packages/compat/src/import-mentions.js";
import { codeRegions, proseSegments } from "../../packages/core/src/markdown/code-regions.js";
import { scanBlocks } from "../../packages/core/src/markdown/scan-blocks.js";
import { scanInline } from "../../packages/core/src/markdown/scan-inline.js";
import { fuzz, hostileText, report } from "./harness.js";

afterAll(() => console.info(report()));

it("scanBlocks, codeRegions, proseSegments and scanInline: results within the text", async () => {
  await fuzz("markdown", hostileText, (text) => {
    scanBlocks(text);
    for (const region of codeRegions(text)) {
      expect(region.start).toBeGreaterThanOrEqual(0);
      expect(region.end).toBeLessThanOrEqual(text.length);
    }
    const segments = proseSegments(text);
    scanInline(text, segments, () => {});
  });
});

it("importMentions: offsets inside the text, never a mention inside code", async () => {
  await fuzz("import-mentions", hostileText, (text) => {
    for (const m of importMentions(text)) {
      expect(text[m.at]).toBe("@");
      expect(m.lineEnd).toBeLessThanOrEqual(text.length);
    }
  });
});
