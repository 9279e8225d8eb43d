// `import(specifier)` for the CommonJS bundles of scripts/build-package.mjs, which may hold no `import()`
// (the bin runs the CLI's main.cjs from a V8 code cache, and Node 20 loses the `import()` callback of code
// read from a cache). `require` loads the package (an ES module too: Node 20.19+); the result is what
// `import()` would give: an ES module's namespace as it is, a CommonJS module's exports as `default` beside
// their own names.
import { types } from "node:util";

export function __importViaRequire(specifier) {
  return Promise.resolve().then(() => {
    const loaded = require(specifier);
    return types.isModuleNamespaceObject(loaded) ? loaded : { ...loaded, default: loaded };
  });
}
