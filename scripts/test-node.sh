#!/usr/bin/env bash
# The README's test command (npm test) on another supported Node.js release line, installed from
# the npm registry and cached (scripts/setup-node.sh). Usage: bash scripts/test-node.sh 24
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(bash scripts/setup-node.sh "${1:?usage: test-node.sh <major version, e.g. 24>}")"
echo "npm test on node $("$bin/node" --version)" >&2
PATH="$bin:$PATH" npm test
