#!/usr/bin/env bash
# Packs every workspace package with `pnpm pack` (which rewrites `workspace:*` to the version; `npm pack`
# would leave it) into the folder given as $1, and prints the tarball paths, one a line.
# Builds first unless SKILLCTX_PACK_NO_BUILD=1 (CI runs it right after the build of `pnpm test`).
# Used by scripts/installed-size.sh and scripts/consumer-smoke.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:?usage: scripts/pack-all.sh DEST_DIR}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
pnpm() { npx -y "pnpm@${PNPM_VERSION:-10.34.9}" "$@"; }

if [ "${SKILLCTX_PACK_NO_BUILD:-0}" != "1" ]; then
  (cd "$root" && pnpm build >&2)
fi
# Private packages are not published (@skillctx/conformance: docs/decisions.md), so not packed either.
mapfile -t private < <(cd "$root" && node -e 'for (const d of require("fs").readdirSync("packages")) { try { const p = require(`./packages/${d}/package.json`); if (p.private) console.log(`--filter=!${p.name}`); } catch {} }')
(cd "$root" && pnpm -r "${private[@]}" pack --pack-destination "$dest" >/dev/null)
ls "$dest"/*.tgz
