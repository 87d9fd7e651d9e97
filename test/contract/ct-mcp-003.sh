#!/usr/bin/env bash
# CT-MCP-003 (seed 001 §4, schema, covers REQ-MCP-003): metadata.fusion_depth is present and within 0-5.
set -euo pipefail
graph-rag.sh --query "test" --format json | \
  jq -e '.metadata.fusion_depth >= 0 and .metadata.fusion_depth <= 5'
