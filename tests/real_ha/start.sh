#!/usr/bin/env bash
# Starts a real Home Assistant on 127.0.0.1 for hamcp's real-HA tests.
#
#   tests/real_ha/start.sh RUN_DIR
#
# A new RUN_DIR gets a copy of tests/real_ha/config, a free loopback port and an
# owner user with a long-lived token; RUN_DIR/ha.env then holds
# HOMEASSISTANT_URL, HOMEASSISTANT_TOKEN and HA_VERSION. Run it again on the same
# RUN_DIR (after stop.sh) to restart HA with the same port, state and token: the
# reconnect test does that. Log: RUN_DIR/ha.log. Stop with stop.sh RUN_DIR.
#
# HA runs under hass_loop.sh, which starts it again when it exits asking for a
# restart (code 100), as HA's container does; hass.pid is the loop's pid.
#
# The runtime comes from install.sh (cached); set HAMCP_REAL_HA_RUNTIME_FILE to
# reuse one install.sh already printed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -eq 1 ] || { echo "usage: $0 RUN_DIR" >&2; exit 2; }
mkdir -p "$1"
run="$(cd "$1" && pwd)"
log() { echo "real_ha/start: $*" >&2; }

if [ -f "$run/runtime.env" ]; then
  runtime_file="$run/runtime.env"
else
  runtime_file="${HAMCP_REAL_HA_RUNTIME_FILE:-$("$here/install.sh")}"
  cp "$runtime_file" "$run/runtime.env"
fi
# shellcheck disable=SC1090
. "$run/runtime.env"

if [ -f "$run/hass.pid" ] && kill -0 "$(cat "$run/hass.pid")" 2>/dev/null; then
  log "Home Assistant already runs for $run (pid $(cat "$run/hass.pid"))"; exit 1
fi

if [ ! -f "$run/configuration.yaml" ]; then
  cp -r "$here/config/." "$run/"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  echo "$port" > "$run/port"
  printf '\n# Added by start.sh: loopback only, port picked at start.\nhttp:\n  server_host: 127.0.0.1\n  server_port: %s\n' \
    "$port" >> "$run/configuration.yaml"
fi
port="$(cat "$run/port")"
url="http://127.0.0.1:$port"

# --skip-pip: the lock installed every requirement; HA must not reach for PyPI.
hass_args=(--skip-pip --log-rotate-days 1)
t0=$(date +%s.%N)
case "$RHA_MODE" in
  py311)
    "$here/hass_loop.sh" "$RHA_VENV/bin/hass" -c "$run" --log-file "$run/ha.log" "${hass_args[@]}" \
      </dev/null >"$run/hass.out" 2>&1 &
    ;;
  trixie)
    # The run dir appears inside the Debian 13 root at /run/hamcp/<id>, bound in a
    # private mount namespace that dies with HA. exec keeps HA's pid = the loop's child.
    id="$(echo "$run" | sha256sum | cut -c1-16)"
    inner="/run/hamcp/$id"
    mkdir -p "$RHA_ROOT$inner"
    "$here/hass_loop.sh" unshare --mount --propagation private -- sh -c '
      r="$1"; run="$2"; inner="$3"; shift 3
      mount --rbind /dev "$r/dev" && mount -t proc proc "$r/proc" && mount --bind "$run" "$r$inner" \
        && exec chroot "$r" "$@"' sh "$RHA_ROOT" "$run" "$inner" \
      env -i PATH="$RHA_VENV/bin:/usr/bin:/bin" HOME=/root LANG=C.UTF-8 TZ=UTC \
      "$RHA_VENV/bin/hass" -c "$inner" --log-file "$inner/ha.log" "${hass_args[@]}" \
      </dev/null >"$run/hass.out" 2>&1 &
    ;;
  *) log "unknown runtime '$RHA_MODE' in $run/runtime.env"; exit 2 ;;
esac
pid=$!
echo "$pid" > "$run/hass.pid"
log "Home Assistant $RHA_HA_VERSION ($RHA_MODE) starting on $url (pid $pid)"

if ! python3 "$here/onboard.py" --url "$url" --env-file "$run/ha.env" --pid "$pid" \
    --timeout "${HAMCP_REAL_HA_START_TIMEOUT:-600}"; then
  log "start failed; last lines of $run/ha.log and hass.out:"
  tail -n 30 "$run/ha.log" "$run/hass.out" >&2 2>/dev/null || true
  "$here/stop.sh" "$run" || true
  exit 1
fi
log "ready in $(python3 -c "import time; print(f'{time.time() - $t0:.1f}')")s; env file $run/ha.env"
