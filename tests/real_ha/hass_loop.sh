#!/usr/bin/env bash
# Runs Home Assistant (the command given) and starts it again when it exits with
# code 100, HA's "restart me" (homeassistant.restart), as HA's container or the
# Supervisor does; at most HAMCP_HASS_RESTARTS times (default 5), so a crash loop
# ends. SIGTERM/SIGINT go to HA and end the loop (stop.sh signals this process).
#
#   hass_loop.sh HASS_COMMAND...
set -u
max="${HAMCP_HASS_RESTARTS:-5}"
child=""
stopping=""
trap 'stopping=1; [ -n "$child" ] && kill -TERM "$child" 2>/dev/null' TERM INT
restarts=0
while :; do
  "$@" &
  child=$!
  wait "$child"
  rc=$?
  # A trapped signal ends `wait` early: wait for HA itself to finish.
  while kill -0 "$child" 2>/dev/null; do
    wait "$child"
    rc=$?
  done
  [ -n "$stopping" ] && exit "$rc"
  if [ "$rc" -ne 100 ] || [ "$restarts" -ge "$max" ]; then exit "$rc"; fi
  restarts=$((restarts + 1))
  echo "real_ha/hass_loop: Home Assistant asked for a restart (exit 100): starting it again ($restarts/$max)" >&2
done
