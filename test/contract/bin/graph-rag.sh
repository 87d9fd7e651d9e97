#!/usr/bin/env bash
# The CKB contract tests call the CLI as `graph-rag.sh`; this is the same launcher under that name.
source "$(dirname "${BASH_SOURCE[0]}")/simulation-knobs.sh"
exec node "$(dirname "${BASH_SOURCE[0]}")/../../../bin/graph-rag.js" "$@"
