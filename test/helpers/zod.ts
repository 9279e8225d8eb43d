/**
 * zod 4, as packages/core resolves it (core is the one package that loads zod, through zod-lib.ts):
 * the same module instance the sources use, so schemas made in a test are the ones `defineSkill` reads.
 */
export { z } from "../../packages/core/node_modules/zod/index.js";
