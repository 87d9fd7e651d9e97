#!/usr/bin/env bash
# CT-MCP-002 (seed 001 §4, behavior, covers REQ-MCP-002): when CKB is unavailable a fallback reason is given.
set -euo pipefail
# 模拟 CKB 不可用
CKB_UNAVAILABLE=1 graph-rag.sh --query "test" --format json | \
  jq -e '.metadata.ckb_available == false and .metadata.ckb_fallback_reason != null'
