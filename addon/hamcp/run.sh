#!/bin/sh
# The add-on's start script: reads the options the user set in the add-on's Configuration tab
# (/data/options.json, written by the Supervisor), checks them, and runs hamcp on the add-on's
# port. hamcp reaches Home Assistant through the Supervisor's Core proxy by itself: SUPERVISOR_TOKEN
# is in its environment and no HOMEASSISTANT_URL is set. A bad option stops the add-on with a line
# in its log saying which option and how to fix it; the token itself is never logged.
set -eu
options="${ADDON_OPTIONS_FILE:-/data/options.json}"
hamcp="${HAMCP_BIN:-/usr/bin/hamcp}"
port="${ADDON_PORT:-8086}"

fail() { echo "[hamcp add-on] $*" >&2; exit 1; }
[ -n "${SUPERVISOR_TOKEN:-}" ] || fail "SUPERVISOR_TOKEN is not set: this script runs inside the Home Assistant add-on (homeassistant_api: true)"
[ -r "$options" ] || fail "cannot read the add-on options ($options)"
jq -e 'type == "object"' "$options" >/dev/null 2>&1 || fail "the add-on options ($options) are not a JSON object"
option() { jq -r --arg k "$1" 'if has($k) and .[$k] != null then .[$k] | tostring else "" end' "$options"; }

auth_token="$(option auth_token)"
log_level="$(option log_level)"; log_level="${log_level:-info}"
idle_hours="$(option session_idle_hours)"; idle_hours="${idle_hours:-720}"
max_sessions="$(option max_sessions)"; max_sessions="${max_sessions:-1000}"
read_only="$(option read_only)"; read_only="${read_only:-false}"
disabled_tools="$(option disabled_tools)"

[ ${#auth_token} -ge 16 ] || fail "option auth_token: set it to a long random string (16 characters or more, e.g. the output of 'openssl rand -hex 32') in the add-on's Configuration tab; MCP clients send it as 'Authorization: Bearer <token>'"
case "$log_level" in debug|info|warn|error) ;; *) fail "option log_level: '$log_level' is not one of debug, info, warn, error" ;; esac
case "$read_only" in true|false) ;; *) fail "option read_only: '$read_only' is not true or false" ;; esac

data_dir="${ADDON_DATA_DIR:-/data/hamcp}"
mkdir -p "$data_dir" && chmod 700 "$data_dir"
echo "[hamcp add-on] MCP endpoint: http://<your Home Assistant host>:<port mapped in the add-on's Network settings, default $port>/mcp"
if [ "$read_only" = true ]; then echo "[hamcp add-on] read-only mode: every write to Home Assistant is refused"; fi
echo "[hamcp add-on] clients send: Authorization: Bearer <the add-on's auth_token option>; on a client machine, 'hamcp setup <client> --http --url <that URL>' prints the client's configuration"
# The options go as flags; the token as an environment variable, so it is not in the process list.
# Clients reach the add-on by whatever name or address the HA host has (homeassistant.local, an IP,
# a reverse proxy's name): any Host is accepted. That is safe here because every request must carry
# the bearer token, which a DNS-rebinding page in a browser does not have.
export MCP_AUTH_TOKEN="$auth_token"
# An unknown tool name in disabled_tools stops hamcp with a line naming it.
export READ_ONLY_MODE="$read_only" DISABLED_TOOLS="$disabled_tools"
unset HOMEASSISTANT_URL HOMEASSISTANT_TOKEN
exec "$hamcp" --http --host 0.0.0.0 --port "$port" --allowed-host '*' --data-dir "$data_dir" --log-level "$log_level" \
  --session-idle-hours "$idle_hours" --max-sessions "$max_sessions"
