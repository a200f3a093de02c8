# Sourced by the bench/ha scripts that run the real server on a simulated home
# (sync_memory.sh, overview_filter.sh):
#   start_sim_server BIN ENTITIES SIM_PORT HTTP_PORT [hamcp args...]
# starts `hamcp sim` (127.0.0.1 only, seed 42) and `hamcp --http` on it, waits
# (bounded: 30 s, then 60 s) for the sim's API and the mirror's sync, prints the
# sync line; sets $sim, $srv, $log. stop_sim_server stops both.
start_sim_server() {
  local bin=$1 n=$2 sp=$3 hp=$4
  shift 4
  log=$(mktemp)
  "$bin" sim --host 127.0.0.1 --port "$sp" --token t --entities "$n" --seed 42 >/dev/null 2>&1 &
  sim=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$sp/api/" && break; sleep 0.3; done
  HOMEASSISTANT_URL=http://127.0.0.1:$sp HOMEASSISTANT_TOKEN=t "$bin" --http --port "$hp" "$@" >"$log" 2>&1 &
  srv=$!
  for _ in $(seq 600); do grep -q "mirror: synced" "$log" && break; sleep 0.1; done
  grep -o "synced [0-9]* entities in [0-9]* ms" "$log" || echo "not synced within 60 s"
  sleep 1
}

stop_sim_server() {
  kill "$srv" "$sim"
  wait "$srv" "$sim" 2>/dev/null
  rm -f "$log"
}
