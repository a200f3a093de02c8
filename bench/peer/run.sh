#!/usr/bin/env bash
# Side-by-side benchmark of hamcp and ha-mcp (issue 5), one command:
#
#   bench/peer/run.sh            full run: 1k/10k/100k entities, 60 s throughput runs (~1 h);
#                                writes bench/REPORT.md and bench/peer/plots/*.png
#   bench/peer/run.sh --smoke    1k entities, few iterations (CI proves the script still works);
#                                writes into $HAMCP_PEER_OUT (default build-ci-logs/peer-smoke)
#
# Installs ha-mcp from PyPI into a venv (the newest release that installs on the newest Python
# here: ha-mcp 8.x needs Python >= 3.13, found via pyenv or PATH) and the official MCP Python
# client into another; the hamcp binary comes from $HAMCP_BIN (default build-ci/hamcp, built if absent).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
smoke=0
[ "${1:-}" = "--smoke" ] && smoke=1
cache="${HAMCP_PEER_CACHE:-$root/build-ci-peer}"
mkdir -p "$cache"

hamcp="${HAMCP_BIN:-${HAMCP_BUILD_DIR:-$root/build-ci}/hamcp}"
if [ ! -x "$hamcp" ]; then
  cmake -S "$root" -B "$root/build-ci" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$root/build-ci" -j2 hamcp
  hamcp="$root/build-ci/hamcp"
fi

# The peer: newest Python available (ha-mcp 8.x requires >= 3.13).
peer_python=""
for c in python3.14 python3.13 /root/.pyenv/versions/3.14*/bin/python3 /root/.pyenv/versions/3.13*/bin/python3; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 13))' 2>/dev/null; then
    peer_python="$(command -v "$c")"; break
  fi
done
peer_bin=""; peer_version="unavailable: no Python >= 3.13 on this machine"
if [ -n "$peer_python" ]; then
  if [ ! -x "$cache/peer-venv/bin/ha-mcp" ]; then
    rm -rf "$cache/peer-venv"
    "$peer_python" -m venv "$cache/peer-venv"
    "$cache/peer-venv/bin/pip" install -q --disable-pip-version-check ha-mcp >&2 || true
  fi
  if [ -x "$cache/peer-venv/bin/ha-mcp" ]; then
    peer_bin="$cache/peer-venv/bin"
    peer_version="ha-mcp $("$cache/peer-venv/bin/pip" show ha-mcp | awk '/^Version:/{print $2}') on Python $("$peer_python" -c 'import platform; print(platform.python_version())')"
  else
    peer_version="unavailable: pip could not install ha-mcp on $("$peer_python" --version)"
  fi
fi
echo "peer: $peer_version" >&2

# The driver: the official MCP Python client (pinned like the e2e tests) + matplotlib for plots.
if [ ! -x "$cache/driver-venv/bin/python" ] || ! "$cache/driver-venv/bin/python" -c 'import mcp, matplotlib' 2>/dev/null; then
  rm -rf "$cache/driver-venv"
  python3 -m venv "$cache/driver-venv"
  "$cache/driver-venv/bin/pip" install -q --disable-pip-version-check \
    -r "$root/tests/e2e/py/requirements.txt" matplotlib==3.9.2 >&2
fi
( cd "$here" && npm ci --silent --no-audit --no-fund >&2 )

if [ "$smoke" = 1 ]; then
  out="${HAMCP_PEER_OUT:-$root/build-ci-logs/peer-smoke}"
  cmd="bench/peer/run.sh --smoke"
  "$cache/driver-venv/bin/python" "$here/bench.py" --hamcp "$hamcp" --peer-bin "$peer_bin" \
    --peer-version "$peer_version" --out "$out" --smoke
else
  out="$here/out"
  cmd="bench/peer/run.sh"
  "$cache/driver-venv/bin/python" "$here/bench.py" --hamcp "$hamcp" --peer-bin "$peer_bin" \
    --peer-version "$peer_version" --out "$out"
fi
node "$here/tokens.mjs" "$out/results.json"
"$cache/driver-venv/bin/python" "$here/report.py" "$out/results.json" "$out" "$cmd"
if [ "$smoke" = 1 ]; then
  "$cache/driver-venv/bin/python" "$here/check_smoke.py" "$out/results.json"
else
  mkdir -p "$here/plots"
  cp "$out"/*.png "$here/plots/"
  sed 's#](\([a-z_]*\.png\))#](peer/plots/\1)#g' "$out/REPORT.md" > "$root/bench/REPORT.md"
  cp "$out/results.json" "$here/results.json"
  echo "bench: bench/REPORT.md written" >&2
fi
