#!/usr/bin/env bash
# Lints the packed packages as they would be published: publint (package.json fields, exports, files;
# warnings fail) and @arethetypeswrong/cli with the esm-only profile (the types every `exports` entry
# resolves to, under node16/nodenext ESM and bundler resolution). Packs with scripts/pack-all.sh (pnpm,
# so `workspace:*` is rewritten as in a publish). Why esm-only: docs/install.md ("Package checks").
#   scripts/check-packages.sh [--no-build]      (CI: after the build of `pnpm test`)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
case "${1:-}" in
  --no-build) export SKILLCTX_PACK_NO_BUILD=1 ;;
  "") ;;
  *) echo "usage: scripts/check-packages.sh [--no-build]" >&2; exit 2 ;;
esac
work="$(mktemp -d "${TMPDIR:-/tmp}/skillctx-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mapfile -t tarballs < <("$root/scripts/pack-all.sh" "$work")
publint="$root/node_modules/.bin/publint"
attw="$root/node_modules/.bin/attw"
failed=0
for tarball in "${tarballs[@]}"; do
  name="$(basename "$tarball" .tgz)"
  echo "::: $name"
  "$publint" run "$tarball" --strict --level suggestion || failed=1
  "$attw" "$tarball" --profile esm-only --format ascii --no-emoji --no-color || failed=1
done
if [ "$failed" != 0 ]; then
  echo "check-packages: a package failed publint or attw (esm-only); see above" >&2
  exit 1
fi
echo "check-packages: ${#tarballs[@]} packages clean (publint --strict, attw --profile esm-only)"
