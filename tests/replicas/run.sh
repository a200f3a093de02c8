#!/usr/bin/env bash
# Replicas behind a load balancer without sticky sessions: the simulated HA, two `hamcp --http`
# replicas sharing one data dir (so one session key: a session id signed by one is valid on the
# other), Debian's nginx round robin in front, and replicas_drive.py (20 SDK clients for 60 s,
# replica A SIGKILLed and restarted halfway). Everything on loopback, every wait bounded.
#   tests/replicas/run.sh          REPLICAS_CLIENTS=20 REPLICAS_SECONDS=60 by default
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${HAMCP_BUILD_DIR:-$root/build-ci}"
export NO_PROXY="127.0.0.1,localhost,::1" no_proxy="127.0.0.1,localhost,::1"
command -v nginx >/dev/null || { echo "replicas: nginx is not installed (scripts/install-deps.sh)" >&2; exit 1; }
ninja -C "$build" -j"${HAMCP_JOBS:-2}" hamcp >/dev/null
bin="$build/hamcp"
venv="${E2E_VENV:-$build/e2e-venv}"
[ -x "$venv/bin/python" ] || E2E_ONLY=py bash "$root/tests/e2e/run.sh" >/dev/null  # creates the pinned venv

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$work/state.json" ] && kill "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pid_a"])' "$work/state.json")" 2>/dev/null
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null
  sleep 0.2
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() {  # wait_for LOGFILE REGEX: up to 20 s
  for _ in $(seq 1 200); do grep -qE "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "replicas: timed out waiting for '$2' in $1" >&2; cat "$1" >&2; return 1
}

sim_port="$(free_port)"; port_a="$(free_port)"; port_b="$(free_port)"; port="$(free_port)"
"$bin" sim --port "$sim_port" --token sim-token --entities 0 >"$work/sim.log" 2>&1 &
pids+=($!)
wait_for "$work/sim.log" "listening|ready|$sim_port"
mkdir -p "$work/data" && chmod 700 "$work/data"
replica() {  # replica PORT: the argv of one replica
  echo "$bin --http --host 127.0.0.1 --port $1 --data-dir $work/data --ha-url http://127.0.0.1:$sim_port --ha-token sim-token --log-level warn"
}
# shellcheck disable=SC2046
$(replica "$port_a") >"$work/a.log" 2>&1 &
pid_a=$!
# shellcheck disable=SC2046
$(replica "$port_b") >"$work/b.log" 2>&1 &
pids+=($!)
for p in "$port_a" "$port_b"; do
  for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$p/healthz" >/dev/null && break; sleep 0.1; done
  curl -sf "http://127.0.0.1:$p/healthz" >/dev/null || { echo "replicas: replica on $p did not start" >&2; cat "$work"/[ab].log >&2; exit 1; }
done
python3 - "$work/state.json" "$pid_a" "$work/a.log" $(replica "$port_a") <<'PY'
import json, sys
json.dump({"pid_a": int(sys.argv[2]), "log_a": sys.argv[3], "restart_a": sys.argv[4:]}, open(sys.argv[1], "w"))
PY

mkdir -p "$work/nginx"
sed -e "s|@DIR@|$work/nginx|g" -e "s|@PORT_A@|$port_a|" -e "s|@PORT_B@|$port_b|" -e "s|@PORT@|$port|" \
  "$here/nginx.conf.in" >"$work/nginx/nginx.conf"
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" >"$work/nginx/stdout.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
echo "replicas: sim :$sim_port, replica A :$port_a, replica B :$port_b, nginx :$port (round robin)"

rc=0
REPLICAS_URL="http://127.0.0.1:$port/mcp" REPLICAS_STATE="$work/state.json" REPLICAS_PORT_A="$port_a" \
  REPLICAS_ACCESS_LOG="$work/nginx/access.log" timeout 300 "$venv/bin/python" "$here/replicas_drive.py" || rc=$?
if [ $rc -ne 0 ]; then tail -n 20 "$work/a.log" "$work/b.log" "$work/nginx/error.log" >&2; fi
exit $rc
