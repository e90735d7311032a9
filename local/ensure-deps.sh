#!/usr/bin/env bash
# npm start and npm test call this first, so a fresh clone needs no separate install step.
# The lock file's own copy in node_modules tells whether the installed tree is current.
set -euo pipefail
cd "$(dirname "$0")/.."
installed=node_modules/.package-lock.json
if [ ! -x node_modules/.bin/node ] || [ ! -f "$installed" ] || [ package-lock.json -nt "$installed" ]; then
  echo "Installing dependencies with npm ci (this also brings Node.js 24)..."
  npm ci --no-audit --no-fund
fi
