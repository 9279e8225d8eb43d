export { loadGuidance, DEFAULT_MAX_GUIDANCE_BYTES } from "./load-guidance.js";

export type { LoadGuidanceOptions, GuidanceResult } from "./load-guidance.js";
