import { describe, expect, it } from "vitest";
import { keepForModel, modelFamily } from "./model-gate.js";

describe("modelFamily", () => {
  it.each([
    ["claude-sonnet-4-5", "anthropic"],
    ["anthropic/claude-3-haiku", "anthropic"],
    ["gemini-2.5-pro", "gemini"],
    ["google/gemini-flash", "gemini"],
    ["gpt-4o", "openai"],
    ["openai/o3-mini", "openai"],
    ["o1", "openai"],
    ["meta-llama/llama-3.1-70b", "other-known"],
  ])("%s is %s", (model, family) => {
    expect(modelFamily(model)).toBe(family);
  });

  it("is undefined for an unknown or absent model", () => {
    expect(modelFamily("my-local-model")).toBeUndefined();
    expect(modelFamily(undefined)).toBeUndefined();
    expect(modelFamily("  ")).toBeUndefined();
  });
});

describe("keepForModel", () => {
  it("keeps claude guidance only for Claude models", () => {
    expect(keepForModel("claude", "claude-opus-4")).toBe(true);
    expect(keepForModel("claude", "gpt-4o")).toBe(false);
    expect(keepForModel("claude", "gemini-2.5-pro")).toBe(false);
  });

  it("keeps gemini guidance only for Gemini models", () => {
    expect(keepForModel("gemini", "gemini-2.5-pro")).toBe(true);
    expect(keepForModel("gemini", "claude-opus-4")).toBe(false);
  });

  it("gates the guidance of sub-folders by its base name", () => {
    expect(keepForModel("claude:packages/api", "gpt-4o")).toBe(false);
    expect(keepForModel("gemini:server", "gemini-2.5-pro")).toBe(true);
    expect(keepForModel("agents:server", "gpt-4o")).toBe(true);
  });

  it("keeps everything for an unknown or absent model, and other names always", () => {
    expect(keepForModel("claude", undefined)).toBe(true);
    expect(keepForModel("gemini", "my-local-model")).toBe(true);
    expect(keepForModel("agents", "gpt-4o")).toBe(true);
  });
});
