#!/usr/bin/env bash
# Seed 001's contract tests call the CLI as `graph-rag.sh`; this is the same launcher under that name.
exec node "$(dirname "${BASH_SOURCE[0]}")/../../../bin/graph-rag.js" "$@"
