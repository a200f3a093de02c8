#!/usr/bin/env bash
# Fidelity lane: Home Assistant's own JS client (home-assistant-js-websocket,
# exact-pinned in package-lock.json) against `hamcp sim` on loopback.
#   HAMCP_BIN=build/hamcp tests/fidelity/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# HAMCP_BIN wins; scripts/test.sh provides HAMCP_BUILD_DIR; else build/hamcp.
bin="${HAMCP_BIN:-${HAMCP_BUILD_DIR:-$root/build}/hamcp}"
[[ "$bin" = /* ]] || bin="$root/$bin"
if [[ ! -x "$bin" ]]; then
  echo "fidelity: $bin is not an executable (build hamcp first or set HAMCP_BIN)" >&2
  exit 2
fi
cd "$here"
npm ci --no-audit --no-fund >&2

token="fidelity-$$-$RANDOM"
out="$(mktemp)"
"$bin" sim --port 0 --token "$token" >"$out" &
sim_pid=$!
trap 'kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 1 100); do
  [[ -s "$out" ]] && break
  kill -0 "$sim_pid" 2>/dev/null || { echo "fidelity: hamcp sim exited early" >&2; exit 1; }
  sleep 0.1
done
url="$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).url)' "$out")"
echo "fidelity: hamcp sim at $url" >&2
tap="$(mktemp)"
trap 'kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; rm -f "$out" "$tap"' EXIT
rc=0
SIM_URL="$url" SIM_TOKEN="$token" node --test --test-reporter=tap --test-concurrency=1 --test-timeout=60000 \
  ./*.test.mjs | tee "$tap" || rc=$?
# The summary line scripts/test.sh counts.
pass="$(awk '/^# pass /{print $3}' "$tap" | tail -1)"
fail="$(awk '/^# fail /{print $3}' "$tap" | tail -1)"
skip="$(awk '/^# skipped /{print $3}' "$tap" | tail -1)"
echo "fidelity: ${pass:-0} passed, ${fail:-0} failed, ${skip:-0} skipped"
exit "$rc"
