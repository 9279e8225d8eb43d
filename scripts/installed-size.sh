#!/usr/bin/env bash
# Installed size of `skillctx` with its dependencies, as a user gets it: packs every package
# (scripts/pack-all.sh), installs the tarballs with npm into an empty project in a temp folder outside
# the workspace (a default install: no optional peer), and prints the size of node_modules and the
# largest packages in it. du counts a hard-linked file once (esbuild links its binary).
#   scripts/installed-size.sh [--no-build] [--top N] [--keep]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
top=15 keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) export SKILLCTX_PACK_NO_BUILD=1; shift ;;
    --top) top="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: scripts/installed-size.sh [--no-build] [--top N] [--keep]" >&2; exit 2 ;;
  esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/skillctx-size.XXXXXX")"
[ "$keep" = 1 ] && echo "kept: $work" >&2 || trap 'rm -rf "$work"' EXIT
mapfile -t tarballs < <("$root/scripts/pack-all.sh" "$work/tarballs")

mkdir -p "$work/app"
cd "$work/app"
printf '{ "name": "skillctx-size", "private": true, "type": "module" }\n' > package.json
npm install --no-audit --no-fund --loglevel=error "${tarballs[@]}" >&2

total=$(du -sk node_modules | cut -f1)
count=$(npm ls --all --parseable 2>/dev/null | tail -n +2 | sort -u | wc -l)
printf 'installed size: %s MB (du -sk node_modules: %s KB), %s packages\n' "$(awk "BEGIN { printf \"%.1f\", $total / 1024 }")" "$total" "$count"
echo "largest packages (KB, each with its nested node_modules):"
for d in node_modules/* node_modules/@*/*; do
  [ -d "$d" ] || continue
  case "$(basename "$d")" in .bin | @*) continue ;; esac
  printf '%8s  %s\n' "$(du -sk "$d" | cut -f1)" "${d#node_modules/}"
done | sort -rn | head -n "$top"
