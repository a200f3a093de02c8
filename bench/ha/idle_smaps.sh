#!/bin/bash
# Where an idle hamcp's resident memory is, by mapping, for several builds, runs interleaved.
#   bench/ha/idle_smaps.sh RUNS NAME=BIN [NAME=BIN ...]
# Each run: `BIN --http` with HOMEASSISTANT_URL at a closed port (as bench/ha/mirror_memory.sh's
# idle row), /proc/PID/smaps read 3 s after start. Prints per run and build: VmRSS, RssAnon,
# RssFile, the binary's own resident kB per mapping (r-xp = code, r--p = read-only data and
# headers, rw-p = relocated data) and the largest shared libraries; then medians per build.
set -u
runs=$1; shift
hp=${IS_PORT:-18492}  # IS_PORT: set it when two runs share a machine
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one() {  # name bin
  local name=$1 bin=$2 srv
  HOMEASSISTANT_URL=http://127.0.0.1:9 HOMEASSISTANT_TOKEN=t "$bin" --http --port $hp >"$tmp/log" 2>&1 &
  srv=$!; sleep 3
  awk -v name="$name" -v bin="$(realpath "$bin")" '
    /^[0-9a-f]+-[0-9a-f]+ / { perm = $2; path = $6; next }
    /^Rss:/ { if (path == bin) own[perm] += $2; else if (path ~ /\.so/) { sub(/.*\//, "", path); lib[path] += $2 } }
    END {
      printf "%s own_text %d own_ro %d own_rw %d", name, own["r-xp"], own["r--p"], own["rw-p"]
      for (l in lib) if (lib[l] >= 500) printf " %s %d", l, lib[l]
      printf "\n"
    }' "/proc/$srv/smaps"
  awk -v name="$name" '/^(VmRSS|RssAnon|RssFile):/ {printf "%s %s %d\n", name, $1, $2}' "/proc/$srv/status"
  kill $srv; wait $srv 2>/dev/null
}
for r in $(seq "$runs"); do
  for pair in "$@"; do one "${pair%%=*}" "${pair#*=}"; done
done | tee "$tmp/all"
echo "# load $(cut -d' ' -f1 /proc/loadavg); medians over $runs runs (kB):"
awk '$2 ~ /:$/ { k = $1 " " $2; v[k, ++n[k]] = $3 }
     $2 == "own_text" { for (i = 2; i < NF; i += 2) { k = $1 " " $i; v[k, ++n[k]] = $(i + 1) } }
     END { for (k in n) { c = n[k]; delete a; for (i = 1; i <= c; i++) a[i] = v[k, i]
             for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
             print k, a[int((c + 1) / 2)] } }' "$tmp/all" | sort
