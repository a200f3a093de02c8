#!/usr/bin/env bash
# The real-HA lane: install (cached) a real Home Assistant, start it on
# 127.0.0.1, run hamcp's real-HA tests against it, stop it. Always cleans up.
#
#   tests/real_ha/run.sh [-k name-part]
#
# Environment:
#   HAMCP_BUILD_DIR          build dir with hamcp, unit_ha and real_ha_ha_layer_check
#                            (scripts/test.sh sets it); without them the hamcp.* tests
#                            are skipped with the reason
#   HAMCP_REAL_HA_RUNTIME    auto (default) | trixie (HA 2026.2.3, Python 3.13) | py311 (HA 2024.3.3)
#   HAMCP_REAL_HA_CACHE      install cache (default /var/cache/hamcp-real-ha)
#   HAMCP_REAL_HA_KEEP=1     keep the run dir (logs, HA's storage) after the run
# Closing line (from test_real_ha.py): "N passed, N failed, N skipped".
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lane_t0=$SECONDS
log() { echo "real_ha: $*" >&2; }

run_dir="$(mktemp -d /tmp/hamcp-real-ha.XXXXXX)"
cleanup() {
  "$here/stop.sh" "$run_dir"
  if [ "${HAMCP_REAL_HA_KEEP:-0}" = 1 ]; then
    log "run dir kept: $run_dir"
  else
    rm -rf "$run_dir"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

t=$SECONDS
if ! runtime_file="$("$here/install.sh")"; then
  log "install failed"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
install_secs=$((SECONDS - t))
export HAMCP_REAL_HA_RUNTIME_FILE="$runtime_file"

t=$SECONDS
if ! "$here/start.sh" "$run_dir"; then
  log "Home Assistant did not start"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
start_secs=$((SECONDS - t))

args=(--run-dir "$run_dir")
if [ -n "${HAMCP_BUILD_DIR:-}" ]; then
  [ -x "$HAMCP_BUILD_DIR/hamcp" ] && args+=(--hamcp "$HAMCP_BUILD_DIR/hamcp")
  [ -x "$HAMCP_BUILD_DIR/unit_ha" ] && args+=(--unit-ha "$HAMCP_BUILD_DIR/unit_ha")
  [ -x "$HAMCP_BUILD_DIR/real_ha_ha_layer_check" ] && args+=(--ha-layer-check "$HAMCP_BUILD_DIR/real_ha_ha_layer_check")
fi
t=$SECONDS
python3 "$here/test_real_ha.py" "${args[@]}" "$@"  # e.g. -k hamcp.blueprints
rc=$?
log "timings: install ${install_secs}s, first start ${start_secs}s, tests $((SECONDS - t))s, lane $((SECONDS - lane_t0))s"
if [ $rc -ne 0 ]; then
  log "failures: last lines of Home Assistant's log"
  tail -n 40 "$run_dir/ha.log" >&2 2>/dev/null || true
fi
exit $rc
