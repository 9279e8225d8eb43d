#!/usr/bin/env bash
# Consumer smoke test: the packages as a user installs them. Packs every package (scripts/pack-all.sh),
# installs the tarballs with npm in an empty project in a temp folder outside the workspace, and
#  1. with no optional peer installed: type-checks scripts/consumer-smoke/root.ts (the root entry) under
#     strict with skipLibCheck: false, and runs it with node;
#  2. installs the frameworks of the adapter stages below, type-checks every adapter program in one tsc
#     run (same settings), and runs each;
#  3. runs the installed `skillctx` bin;
#  4. follows the README's first loop literally (scripts/first-loop-steps.mjs: its sh blocks run, its
#     `Save as` files written, in a new empty folder, the tarballs in place of /tmp/skillctx), against a
#     local server that answers like the model APIs (scripts/local-model-server.ts); with --pages, every
#     docs/first-loop/*.md page the same way (about 30 s each: each installs its framework); --pages=a,b
#     only those pages (docs/first-loop/a.md, b.md).
#   scripts/consumer-smoke.sh [--no-build] [--keep] [--pages[=NAME,...]] [STAGE...]   (STAGE: below, or first-loop)
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

keep=0 pages="" only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) export SKILLCTX_PACK_NO_BUILD=1; shift ;;
    --keep) keep=1; shift ;;
    --pages) pages=all; shift ;;
    --pages=*) pages="${1#--pages=}"; shift ;;
    -*) echo "usage: scripts/consumer-smoke.sh [--no-build] [--keep] [--pages[=NAME,...]] [STAGE...]" >&2; exit 2 ;;
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

# A page's first loop, as a reader follows it: in a new empty folder, against the local model server.
# The model loads the release-notes skill, then answers; the loop must print the call, and the server
# must have been sent the skill's body (the load_skill result) and the page's systemPrompt.
first_loop() { # NAME PAGE [FROM TO]
  local name="$1" page="$2"; shift 2
  local dir="$work/first-loop-$name" url="" pid
  mkdir -p "$dir"
  node "$root/scripts/first-loop-steps.mjs" --script "$work/tarballs" "$page" "$@" > "$dir/steps.sh"
  "$root/node_modules/.bin/tsx" "$root/scripts/local-model-server.ts" "$dir/requests.json" > "$dir/server.txt" &
  pid=$!
  for _ in $(seq 100); do url="$(head -n 1 "$dir/server.txt")"; [ -n "$url" ] && break; sleep 0.1; done
  [ -n "$url" ] || { echo "consumer smoke: the local model server did not start" >&2; kill "$pid"; exit 1; }
  (cd "$dir" && OPENAI_BASE_URL="$url/v1" ANTHROPIC_BASE_URL="$url" OPENAI_AGENTS_DISABLE_TRACING=1 \
    npm_config_audit=false npm_config_fund=false npm_config_loglevel=error npm_config_prefer_offline=true bash steps.sh) > "$dir/out.txt" 2>&1 \
    || { kill "$pid"; echo "consumer smoke: $name's first loop failed:" >&2; cat "$dir/out.txt" >&2; exit 1; }
  kill -TERM "$pid"; wait "$pid" || true
  grep -q "tool: load_skill" "$dir/out.txt" || { echo "consumer smoke: $name's loop printed no load_skill call" >&2; cat "$dir/out.txt" >&2; exit 1; }
  grep -q "Group the changes by kind" "$dir/requests.json" || { echo "consumer smoke: $name's loop never sent the skill's body" >&2; exit 1; }
  grep -q "You are a helpful release engineer." "$dir/requests.json" || { echo "consumer smoke: $name's loop never sent its systemPrompt" >&2; exit 1; }
  echo "  $name: $(tail -n 1 "$dir/out.txt")"
}
if selected first-loop; then
  step "the README's first loop, followed literally"
  first_loop readme "$root/README.md" "## Your first agent loop" "## What skillctx guarantees"
  if [ -n "$pages" ]; then
    for page in "$root"/docs/first-loop/*.md; do
      name="$(basename "$page" .md)"
      [ "$pages" = all ] || [[ ",$pages," == *",$name,"* ]] || continue
      step "first loop: $name.md"
      first_loop "$name" "$page"
    done
  fi
fi
step "passed"
