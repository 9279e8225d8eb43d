/**
 * zod, loaded on first use. Importing any skillctx package does not load it (about 60 ms and 95 files
 * in a cold process, the largest part of a cold import): every schema is built by a function on its
 * first call (`lazySchemas`), and the public schema objects live in the `schemas` subpath exports.
 *
 * The load is synchronous, like `yaml-lib.ts`, so validation stays synchronous where it is. It requires
 * zod's ES module entry by its resolved path (Node's `require(esm)`, 20.19+ and 22.12+): the very module
 * instance an `import "zod"` elsewhere in the process gets. Where `require(esm)` is off (Node 22.0–22.11),
 * it falls back to zod's CommonJS build, whose schemas interoperate (zod 4 keeps one global registry).
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { z as Z } from "zod";

/** zod's `z`, for types only (`z.infer`, `z.ZodType`): every other module takes zod's types from here. */
export type { z } from "zod";

/** zod's `z` namespace, as the schema builders receive it. */
export type Zod = typeof Z;

let lib: Zod | undefined;

/** zod's `z`, required on the first call. */
export function zod(): Zod {
  lib ??= load();
  return lib;
}

function load(): Zod {
  const require = createRequire(import.meta.url);
  // Without `import.meta.resolve` (a module runner that does not give it): zod's CommonJS build.
  if (typeof import.meta.resolve !== "function") return (require("zod") as { z: Zod }).z;
  try {
    return (require(fileURLToPath(import.meta.resolve("zod"))) as { z: Zod }).z;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_REQUIRE_ESM") throw error;
    return (require("zod") as { z: Zod }).z;
  }
}

/** A function that builds `build(z)`'s schemas on its first call and returns the same ones after. */
export function lazySchemas<T>(build: (z: Zod) => T): () => T {
  let built: T | undefined;
  return () => (built ??= build(zod()));
}
