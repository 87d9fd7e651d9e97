#!/usr/bin/env bash
# CT-MCP-004 (seed 001 §4, behavior, covers SC-MCP-002): a CKB slower than 5 s degrades with connection_timeout.
set -euo pipefail
# 模拟网络延迟 > 5s
CKB_MOCK_DELAY_MS=6000 graph-rag.sh --query "test" --format json | \
  jq -e '.metadata.ckb_available == false and .metadata.ckb_fallback_reason == "connection_timeout"'
