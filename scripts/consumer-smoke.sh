#!/usr/bin/env bash
# Consumer smoke test: the packages as a user installs them. Packs every package (scripts/pack-all.sh),
# installs the tarballs with npm in an empty project in a temp folder outside the workspace, and
#  1. with no optional peer installed: type-checks scripts/consumer-smoke/root.ts (the root entry) under
#     strict with skipLibCheck: false, and runs it with node;
#  2. installs the frameworks of the adapter stages below, type-checks every adapter program in one tsc
#     run (same settings), and runs each;
#  3. runs the installed `skillctx` bin.
#   scripts/consumer-smoke.sh [--no-build] [--keep] [STAGE...]
# To cover a new entry point: write scripts/consumer-smoke/<stage>.ts and add a line to STAGES.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$root/scripts/consumer-smoke"

# stage name → packages it needs beside skillctx (versions: packages/skillctx devDependencies, what the tests use,
# or packages/skills-mcp dependencies)
STAGES=(
  "root:"
  "ai-sdk:ai"
  "openai-agents:@openai/agents"
  "openai:openai"
  "anthropic:@anthropic-ai/sdk"
  "langchain:langchain @langchain/core"
  "ag-ui:@ag-ui/core"
  "serve:@modelcontextprotocol/sdk"
)

keep=0 only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) export SKILLCTX_PACK_NO_BUILD=1; shift ;;
    --keep) keep=1; shift ;;
    -*) echo "usage: scripts/consumer-smoke.sh [--no-build] [--keep] [STAGE...]" >&2; exit 2 ;;
    *) only+=("$1"); shift ;;
  esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/skillctx-smoke.XXXXXX")"
[ "$keep" = 1 ] && echo "consumer smoke: working in $work" || trap 'rm -rf "$work"' EXIT
started=$SECONDS
step() { printf '::: consumer smoke: %s (%ss)\n' "$*" "$((SECONDS - started))"; }
npm_q() { npm --no-audit --no-fund --loglevel=error "$@" >/dev/null; }
# The range a package is developed and tested with.
range() { node -e 'const p = require(process.argv[1]); const n = process.argv[2]; const r = p.devDependencies?.[n] ?? p.dependencies?.[n]; if (!r) { console.error(`no version for ${n}`); process.exit(1); } console.log(`${n}@${r}`);' "$root/$1/package.json" "$2"; }

step "pack"
mapfile -t tarballs < <("$root/scripts/pack-all.sh" "$work/tarballs")
for t in "${tarballs[@]}"; do
  if tar -xzOf "$t" package/package.json | grep -q '"workspace:'; then echo "consumer smoke: $t still has a workspace: range" >&2; exit 1; fi
done

step "install the tarballs, typescript and @types/node in an empty project"
app="$work/app"
mkdir -p "$app"
cd "$app"
printf '{ "name": "skillctx-consumer", "private": true, "type": "module" }\n' > package.json
npm_q install "${tarballs[@]}" "$(range . typescript)" "$(range . @types/node)"
cp "$src"/*.ts "$src/tsconfig.base.json" .

# Without optional peers: none of them (of skillctx and of the @skillctx packages it brings) may have come in.
# A required peer (zod: the user's schemas must be the zod skillctx reads) is installed by npm, as it should be.
peers="$(node -e 'const fs = require("fs"); const dirs = ["skillctx", ...fs.readdirSync("node_modules/@skillctx").map((d) => `@skillctx/${d}`)]; console.log(dirs.flatMap((d) => { const p = require(`./node_modules/${d}/package.json`); return Object.keys(p.peerDependencies ?? {}).filter((n) => p.peerDependenciesMeta?.[n]?.optional === true); }).join(" "))')"
for p in $peers; do
  if [ -e "node_modules/$p" ]; then echo "consumer smoke: optional peer $p was installed by default" >&2; exit 1; fi
done

# A small repository: guidance, one skill with a TypeScript and a JavaScript script.
fixture="$work/repo"
mkdir -p "$fixture/.agents/skills/release-notes/scripts"
printf '# Project\n\nKeep a changelog in CHANGELOG.md.\n' > "$fixture/AGENTS.md"
cat > "$fixture/.agents/skills/release-notes/SKILL.md" <<'EOF'
---
name: release-notes
description: Writes release notes from the changelog. Use when asked for release notes.
---
Group the changes by kind, newest first.
EOF
printf 'const n: number = 3;\nconsole.log(`${n} changes`);\n' > "$fixture/.agents/skills/release-notes/scripts/count.ts"
printf 'console.log("3 changes");\n' > "$fixture/.agents/skills/release-notes/scripts/count.mjs"

selected() { [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " =~ " $1 " ]]; }
files=() specs=()
for entry in "${STAGES[@]}"; do
  stage="${entry%%:*}" needs="${entry#*:}"
  selected "$stage" || continue
  if [ -z "$needs" ]; then
    step "$stage, with no optional peer installed"
    printf '{ "extends": "./tsconfig.base.json", "files": ["%s.ts"] }\n' "$stage" > "tsconfig.$stage.json"
    npx --no-install tsc -p "tsconfig.$stage.json"
    node "out/$stage.js" "$fixture"
    continue
  fi
  files+=("\"$stage.ts\"")
  # The frameworks are skillctx's dev dependencies; the MCP SDK (serve) is @skillctx/skills-mcp's dependency.
  for n in $needs; do specs+=("$(range packages/skillctx "$n" 2>/dev/null || range packages/skills-mcp "$n")"); done
done
if [ ${#files[@]} -gt 0 ]; then
  step "adapters, with ${specs[*]}"
  npm_q install "${specs[@]}"
  # The frameworks' own declarations use fetch and browser types (HeadersInit, RTCPeerConnection): their users
  # add the DOM lib, as here. The root stage above has no DOM lib: skillctx's own types do not need it.
  (IFS=,; printf '{ "extends": "./tsconfig.base.json", "compilerOptions": { "lib": ["ES2023", "DOM", "DOM.Iterable"] }, "files": [%s] }\n' "${files[*]}") > tsconfig.adapters.json
  npx --no-install tsc -p tsconfig.adapters.json
  for f in "${files[@]}"; do
    stage="${f//\"/}"
    echo "  ${stage%.ts}:"
    node "out/${stage%.ts}.js" "$fixture"
  done
fi

step "the installed bin"
npx --no-install skillctx --help > "$work/help.txt"
grep -q "skillctx" "$work/help.txt" || { echo "consumer smoke: skillctx --help printed no usage" >&2; exit 1; }
npx --no-install skillctx list --cwd "$fixture" > "$work/list.txt"
grep -q "release-notes" "$work/list.txt" || { echo "consumer smoke: skillctx list did not show the skill" >&2; cat "$work/list.txt" >&2; exit 1; }
step "passed"
