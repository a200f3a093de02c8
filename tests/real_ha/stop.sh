#!/usr/bin/env bash
# Stops the Home Assistant that start.sh started for RUN_DIR: SIGTERM (HA shuts
# down cleanly and writes its storage), SIGKILL after 60 s. Idempotent.
#
#   tests/real_ha/stop.sh RUN_DIR
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 RUN_DIR" >&2; exit 2; }
run="$1"
pidfile="$run/hass.pid"
[ -f "$pidfile" ] || exit 0
pid="$(cat "$pidfile")"
# Only signal the process if it still is our hass (pids get reused).
if ! tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q "hass"; then
  rm -f "$pidfile"; exit 0
fi
kill -TERM "$pid" 2>/dev/null
for _ in $(seq 1 600); do
  kill -0 "$pid" 2>/dev/null || break
  # A zombie (our own unreaped child) has finished.
  [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = Z ] && break
  sleep 0.1
done
if kill -0 "$pid" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ]; then
  echo "real_ha/stop: Home Assistant (pid $pid) ignored SIGTERM for 60 s: SIGKILL" >&2
  kill -KILL "$pid" 2>/dev/null
fi
rm -f "$pidfile"
