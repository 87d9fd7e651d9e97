#!/usr/bin/env bash
# Scripted check of the MCP endpoint with the MCP Inspector CLI (headless):
# tools/list must show the knowledge-network tools in REQUIRED_TOOLS (the server lists more: code,
# knowledge-base and action tools; the OK line counts them all), tools/call kn_search must return a
# result with recalled object types and no isError.
#
#   scripts/inspector-check.sh [MCP_URL]
#   env: MCP_TOKEN (Bearer token, optional), MCP_KN_ID (default clinic)
#
# Needs the inspector CLI in node_modules: @modelcontextprotocol/inspector-cli@0.16.8 (a devDependency;
# declares no Node engine and runs on Node 20) or @modelcontextprotocol/inspector (>= 0.16.6, whose
# package declares Node >= 22.7.5). A missing CLI is a failure (exit 1), not a skip.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
URL="${1:-http://127.0.0.1:30779/api/agent-retrieval/v1/mcp}"
KN_ID="${MCP_KN_ID:-clinic}"

BIN=""
for candidate in \
  "$ROOT/node_modules/@modelcontextprotocol/inspector-cli/build/cli.js" \
  "$ROOT/node_modules/@modelcontextprotocol/inspector/cli/build/cli.js"; do
  if [[ -f "$candidate" ]]; then BIN="$candidate"; break; fi
done
if [[ -z "$BIN" ]]; then
  echo "FAIL inspector-check: MCP Inspector CLI not installed (npm ci installs the devDependency @modelcontextprotocol/inspector-cli@0.16.8)" >&2
  exit 1
fi

HEADERS=(--header "X-Kn-ID: ${KN_ID}")
if [[ -n "${MCP_TOKEN:-}" ]]; then HEADERS+=(--header "Authorization: Bearer ${MCP_TOKEN}"); fi

inspect() {
  node "$BIN" --cli "$URL" --transport http "${HEADERS[@]}" "$@"
}

REQUIRED_TOOLS=(kn_schema_search kn_search query_object_instance query_instance_subgraph resolve_logic_properties get_action_info)
tools="$(inspect --method tools/list)"
listed="$(node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).tools.length))' <<<"$tools")"
for tool in "${REQUIRED_TOOLS[@]}"; do
  if ! grep -q "\"name\": \"${tool}\"" <<<"$tools"; then
    echo "FAIL inspector-check: tools/list does not show ${tool}" >&2
    exit 1
  fi
done

called="$(inspect --method tools/call --tool-name kn_search --tool-arg "query=糖尿病" --tool-arg "response_format=json")"
if ! grep -q '"content"' <<<"$called" || ! grep -q '"object_types"' <<<"$called" || grep -q '"isError": true' <<<"$called"; then
  echo "FAIL inspector-check: tools/call kn_search returned no result (or an error)" >&2
  echo "$called" >&2
  exit 1
fi
echo "OK inspector-check: ${listed} tools listed, the ${#REQUIRED_TOOLS[@]} knowledge-network tools among them; kn_search answered (kn_id ${KN_ID})"
