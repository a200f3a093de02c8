#!/usr/bin/env bash
# The Home Assistant add-on (addon/hamcp): its config, build and translation files pass the
# Supervisor's rules (validate_config.py, facts and their source there; a broken copy must fail),
# and its start script, run as the Supervisor runs it (options file, SUPERVISOR_TOKEN, no HA URL)
# against a simulated Supervisor whose Core proxy fronts the simulated HA, starts hamcp, which syncs
# through the proxy and answers an MCP client that has the add-on's token. Bad options stop the
# add-on with a log line naming the option; the token never appears in the log.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${HAMCP_BUILD_DIR:-$root/build-ci}"
export NO_PROXY="127.0.0.1,localhost,::1" no_proxy="127.0.0.1,localhost,::1"
ninja -C "$build" -j"${HAMCP_JOBS:-2}" hamcp >/dev/null
venv="${E2E_VENV:-$build/e2e-venv}"
[ -x "$venv/bin/python" ] || E2E_ONLY=py bash "$root/tests/e2e/run.sh" >/dev/null  # the pinned SDK venv
passed=0; failed=0
check() {  # check NAME CMD...: one counted assertion
  if "${@:2}"; then passed=$((passed + 1)); echo "addon: ok: $1"; else failed=$((failed + 1)); echo "addon: FAILED: $1"; fi
}

work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 0.2; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# 1. The files the Supervisor reads.
check "config.yaml, build.yaml, translations pass the Supervisor's rules" python3 "$here/validate_config.py" "$root/addon/hamcp"
cp -r "$root/addon/hamcp" "$work/broken"
sed -i -e 's/^slug: hamcp/slug: "ham cp"/' -e 's/log_level: list(debug|info|warn|error)/log_level: lists(debug)/' "$work/broken/config.yaml"
check "a broken copy is refused (bad slug, bad option type)" bash -c "! python3 '$here/validate_config.py' '$work/broken' >/dev/null"

# 2. A simulated Supervisor (Core proxy) in front of the simulated HA.
supervisor_token="sv-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
sim_port="$(free_port)"; sup_port="$(free_port)"; addon_port="$(free_port)"
"$build/hamcp" sim --port "$sim_port" --token "$supervisor_token" >"$work/sim.log" 2>&1 &
pids+=($!)
mkdir -p "$work/nginx"
sed -e "s|@DIR@|$work/nginx|g" -e "s|@PORT@|$sup_port|" -e "s|@SIM_PORT@|$sim_port|" \
  "$here/supervisor-nginx.conf.in" >"$work/nginx/nginx.conf"
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$sup_port/core/api/" && break; sleep 0.1; done

# addon_cmd OPTIONS_JSON [extra env...]: writes the options file and sets `cmd` to the start script
# as the Supervisor starts it. Run as a plain command, not inside a function: env, run.sh and hamcp
# then are one process (each execs the next), so a backgrounded start's $! is hamcp's pid and a
# kill of it stops hamcp (from a function, $! was a subshell's and hamcp outlived the test).
addon_cmd() {
  echo "$1" >"$work/options.json"
  cmd=(env -i PATH="$PATH" SUPERVISOR_TOKEN="$supervisor_token" HAMCP_SUPERVISOR_ENDPOINT="127.0.0.1:$sup_port"
    ADDON_OPTIONS_FILE="$work/options.json" ADDON_DATA_DIR="$work/data" ADDON_PORT="$addon_port"
    HAMCP_BIN="$build/hamcp" "${@:2}" "$root/addon/hamcp/run.sh")
}

# 3. Good options: hamcp starts, syncs through the proxy, answers an MCP client with the token.
token="tok-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
addon_cmd "{\"auth_token\": \"$token\", \"log_level\": \"info\", \"session_idle_hours\": 720, \"max_sessions\": 1000}"
"${cmd[@]}" >"$work/addon.log" 2>&1 &
addon_pid=$!
pids+=($addon_pid)
synced=""
for _ in $(seq 1 200); do grep -q "synced" "$work/addon.log" 2>/dev/null && { synced=1; break; }; sleep 0.1; done
check "hamcp started by run.sh synced through the Supervisor's Core proxy" test -n "$synced"
check "an MCP client with the add-on's token gets answers" \
  "$venv/bin/python" "$here/addon_client.py" "http://127.0.0.1:$addon_port/mcp" "$token"
check "a client without the token is refused (401)" \
  test "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d '{}' "http://127.0.0.1:$addon_port/mcp")" = 401
check "the log tells where clients connect" grep -q "MCP endpoint: http://" "$work/addon.log"
kill "$addon_pid" 2>/dev/null; wait "$addon_pid" 2>/dev/null || true
check "the token is not in the add-on log" bash -c "! grep -q '$token' '$work/addon.log'"
check "the Supervisor token is not in the add-on log" bash -c "! grep -q '$supervisor_token' '$work/addon.log'"

# 3b. read_only and disabled_tools: no write reaches HA, the switched-off tool says so.
ro_port="$(free_port)"  # its own port: the instance above may still be closing
addon_cmd "{\"auth_token\": \"$token\", \"read_only\": true, \"disabled_tools\": \"ha_get_overview\"}" ADDON_PORT="$ro_port"
"${cmd[@]}" >"$work/ro.log" 2>&1 &
addon_pid=$!
pids+=($addon_pid)
synced=""
for _ in $(seq 1 200); do grep -q "synced" "$work/ro.log" 2>/dev/null && { synced=1; break; }; sleep 0.1; done
check "read_only: hamcp synced and the log says read-only mode" bash -c "[ -n '$synced' ] && grep -q 'read-only mode' '$work/ro.log'"
check "read_only + disabled_tools: no write tool listed, writes refused, ha_get_overview off" \
  "$venv/bin/python" "$here/addon_client.py" "http://127.0.0.1:$ro_port/mcp" "$token" read-only
kill "$addon_pid" 2>/dev/null; wait "$addon_pid" 2>/dev/null || true

# 4. Bad options: the add-on stops, and its log names the option and the fix.
bad_option() {  # bad_option NAME OPTIONS_JSON EXPECTED_TEXT [extra env...]
  local log="$work/bad.log" rc=0
  addon_cmd "$2" "${@:4}"
  "${cmd[@]}" >"$log" 2>&1 || rc=$?
  check "$1: stops (exit $rc) and the log says '$3'" bash -c "[ $rc -ne 0 ] && grep -qF -- '$3' '$log'"
}
bad_option "no auth_token" '{"auth_token": "", "log_level": "info"}' "option auth_token: set it"
bad_option "short auth_token" '{"auth_token": "abc", "log_level": "info"}' "option auth_token"
bad_option "unknown log level" "{\"auth_token\": \"$token\", \"log_level\": \"loud\"}" "is not one of debug, info, warn, error"
bad_option "options not JSON" '{not json' "are not a JSON object"
bad_option "session_idle_hours out of range" "{\"auth_token\": \"$token\", \"session_idle_hours\": 0}" "--session-idle-hours"
bad_option "read_only not a bool" "{\"auth_token\": \"$token\", \"read_only\": \"maybe\"}" "option read_only"
bad_option "disabled_tools names no tool" "{\"auth_token\": \"$token\", \"disabled_tools\": \"ha_nope\"}" "ha_nope"
bad_option "no SUPERVISOR_TOKEN" "{\"auth_token\": \"$token\"}" "SUPERVISOR_TOKEN is not set" SUPERVISOR_TOKEN=
echo "$passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
