#!/usr/bin/env bash
# Builds hamcp (Release) and runs it against its embedded simulated home: `hamcp --demo`.
# Extra arguments go to hamcp, e.g. `scripts/demo.sh --http` serves http://127.0.0.1:8086/mcp.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${HAMCP_BUILD_DIR:-$root/build}"
if [ "$(id -u)" -eq 0 ]; then
  "$root/scripts/install-deps.sh" >&2
else
  "$root/scripts/install-deps.sh" >&2 2>/dev/null || echo "demo: run scripts/install-deps.sh as root first if the build fails" >&2
fi
export CCACHE_BASEDIR="$root"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
# Only the server itself: tests and benchmarks are not needed to try it.
ninja -C "$build" -j"${HAMCP_JOBS:-2}" hamcp >&2
exec "$build/hamcp" --demo "$@"
