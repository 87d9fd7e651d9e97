#!/usr/bin/env bash
# Scripted check of the MCP endpoint with the MCP Inspector CLI (headless):
# tools/list must show the six knowledge-network tools, tools/call kn_search must return a result.
#
#   scripts/inspector-check.sh [MCP_URL]
#   env: MCP_TOKEN (Bearer token, optional), MCP_KN_ID (default clinic)
#
# Needs the inspector CLI in node_modules: @modelcontextprotocol/inspector-cli@0.16.8 (declares no
# Node engine; the first line with --header is 0.16.6) or @modelcontextprotocol/inspector (>= 0.16.6,
# whose package declares Node >= 22.7.5). Without it the check is skipped (exit 0, message on stderr).
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
  echo "SKIP inspector-check: MCP Inspector CLI not installed (add @modelcontextprotocol/inspector-cli@0.16.8 as a devDependency)" >&2
  exit 0
fi

HEADERS=(--header "X-Kn-ID: ${KN_ID}")
if [[ -n "${MCP_TOKEN:-}" ]]; then HEADERS+=(--header "Authorization: Bearer ${MCP_TOKEN}"); fi

inspect() {
  node "$BIN" --cli "$URL" --transport http "${HEADERS[@]}" "$@"
}

tools="$(inspect --method tools/list)"
for tool in kn_schema_search kn_search query_object_instance query_instance_subgraph resolve_logic_properties get_action_info; do
  if ! grep -q "\"name\": \"${tool}\"" <<<"$tools"; then
    echo "FAIL inspector-check: tools/list does not show ${tool}" >&2
    exit 1
  fi
done

called="$(inspect --method tools/call --tool-name kn_search --tool-arg "query=糖尿病")"
if ! grep -q '"content"' <<<"$called"; then
  echo "FAIL inspector-check: tools/call kn_search returned no content" >&2
  echo "$called" >&2
  exit 1
fi
echo "OK inspector-check: six tools listed, kn_search answered (kn_id ${KN_ID})"
