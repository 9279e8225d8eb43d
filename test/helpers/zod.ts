/**
 * zod 4, as packages/skillctx resolves it (the root has no zod of its own): the same module instance
 * the sources use, so schemas made in a test are the ones `defineSkill` reads.
 */
export { z } from "../../packages/skillctx/node_modules/zod/index.js";
