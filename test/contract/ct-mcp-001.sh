#!/usr/bin/env bash
# CT-MCP-001 (seed 001 §4, schema, covers REQ-MCP-001): metadata.ckb_available is present.
set -euo pipefail
graph-rag.sh --query "test" --format json | jq -e '.metadata | has("ckb_available")'
