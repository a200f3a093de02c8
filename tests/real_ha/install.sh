#!/usr/bin/env bash
# Installs a real Home Assistant for the real-HA lane, cached per version so
# re-runs on the same machine take seconds, and a fresh machine still works.
#
#   tests/real_ha/install.sh            # prints the runtime file path on stdout
#
# Two runtimes (HAMCP_REAL_HA_RUNTIME):
#   trixie  HA 2026.2.3 on Python 3.13 inside a Debian 13 root made by debootstrap
#           (the newest HA that installs here: later releases need Python >= 3.14).
#           HA runs chrooted in a private mount namespace (root needed).
#   py311   HA 2024.3.3 in a venv on the host's Python 3.11 (newest HA for 3.11;
#           no floors/labels/categories, old backup API).
#   auto    (default) trixie, falling back to py311 with a loud note if the
#           Debian 13 root cannot be built here.
# Every Python package is pinned by lock/ha-<version>-py<python>.txt, installed
# with --no-deps and checked with `pip check`: the lock is complete, so HA's own
# start-up pip step has nothing to fetch (start.sh runs hass --skip-pip).
#
# Cache: ${HAMCP_REAL_HA_CACHE:-/var/cache/hamcp-real-ha}; keys include the HA
# version and the lock file's hash, so a changed lock installs a new venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${HAMCP_REAL_HA_CACHE:-/var/cache/hamcp-real-ha}"
runtime="${HAMCP_REAL_HA_RUNTIME:-auto}"
mkdir -p "$cache"

log() { echo "real_ha/install: $*" >&2; }

# One installer at a time per cache (parallel lanes share it).
exec 9>"$cache/.install.lock"
flock 9

TRIXIE_HA=2026.2.3
TRIXIE_LOCK="$here/lock/ha-$TRIXIE_HA-py3.13.txt"
PY311_HA=2024.3.3
PY311_LOCK="$here/lock/ha-$PY311_HA-py3.11.txt"
# Packages in the Debian 13 root: Python 3.13, and C/C++ compilers because a few
# locked packages have no cp313 wheel (lru-dict, pymicro-vad, pyspeex-noise; HA's
# service descriptions import assist_pipeline, which needs the last two).
# Bump the key when this list changes.
TRIXIE_PACKAGES="python3,python3-venv,python3-dev,gcc,g++,libc6-dev,ca-certificates"
TRIXIE_KEY="trixie-root-v3"

# Python environment for pip inside the chroot: only what pip needs.
chroot_env=(env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8
  PIP_CERT=/etc/ssl/certs/host-ca.crt SSL_CERT_FILE=/etc/ssl/certs/host-ca.crt
  PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180
  PIP_CACHE_DIR=/var/cache/hamcp-pip)  # kept in the root: a changed lock reuses built wheels

lock_hash() { sha256sum "$1" | cut -c1-12; }

# The Debian mirror this machine's apt already uses (never hard-coded here).
debian_mirror() {
  (grep -hoE '^(URIs:|deb)[[:space:]]+[^[:space:]]+/debian/?([[:space:]]|$)' \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null || true) \
    | awk '{print $2}' | head -n 1
}

# Runs a command inside the Debian 13 root with /dev and /proc mounted in a
# private mount namespace: the mounts vanish with the command.
in_root() {
  local root="$1"; shift
  unshare --mount --propagation private -- sh -c \
    'r="$1"; shift; mount --rbind /dev "$r/dev" && mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' \
    sh "$root" "$@"
}

build_trixie_root() {
  local root="$cache/$TRIXIE_KEY"
  if [ -f "$root/.hamcp-ready" ]; then
    echo "$root"; return 0
  fi
  rm -rf "$root" "$root.partial"
  if ! command -v debootstrap >/dev/null; then
    log "installing debootstrap (apt)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap; } >&2 || return 1
  fi
  local mirror; mirror="$(debian_mirror)"
  [ -n "$mirror" ] || { log "no Debian mirror in the apt sources"; return 1; }
  log "debootstrap trixie (Debian 13) into $root"
  local t0=$SECONDS
  debootstrap --variant=minbase --include="$TRIXIE_PACKAGES" trixie "$root.partial" "$mirror" \
    > "$cache/debootstrap.log" 2>&1 || { log "debootstrap failed, see $cache/debootstrap.log"; tail -5 "$cache/debootstrap.log" >&2; return 1; }
  mkdir -p "$root.partial/run/hamcp" && chmod 1777 "$root.partial/tmp"
  mv "$root.partial" "$root"
  touch "$root/.hamcp-ready"
  # Roots of older package lists are dead weight (1-2 GB each).
  find "$cache" -maxdepth 1 -name 'trixie-root-v*' ! -name "$TRIXIE_KEY" -exec rm -rf {} + 2>/dev/null || true
  log "Debian 13 root ready in $((SECONDS - t0))s"
  echo "$root"
}

install_trixie() {
  local root venv key t0
  root="$(build_trixie_root)" || return 1
  # The host's CA bundle and resolver, so pip in the root reaches PyPI the way the host does.
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/host-ca.crt"
  cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  key="ha-$TRIXIE_HA-$(lock_hash "$TRIXIE_LOCK")"
  venv="/opt/$key"
  if [ ! -f "$root$venv/.hamcp-ready" ]; then
    t0=$SECONDS
    log "installing Home Assistant $TRIXIE_HA (Python 3.13) into the root's $venv"
    rm -rf "$root$venv"
    cp "$TRIXIE_LOCK" "$root/tmp/hamcp-lock.txt"
    in_root "$root" "${chroot_env[@]}" sh -ec "
      python3 -m venv $venv
      $venv/bin/pip install -q --no-deps -r /tmp/hamcp-lock.txt
      $venv/bin/pip check
      $venv/bin/python -c 'import homeassistant.const as c; assert c.__version__ == \"$TRIXIE_HA\", c.__version__'
    " >&2 || { log "pip install in the Debian 13 root failed"; return 1; }
    rm -f "$root/tmp/hamcp-lock.txt"
    touch "$root$venv/.hamcp-ready"
    find "$root/opt" -maxdepth 1 -name 'ha-*' ! -name "$key" -exec rm -rf {} + 2>/dev/null || true
    log "Home Assistant $TRIXIE_HA installed in $((SECONDS - t0))s"
  fi
  write_runtime trixie "$TRIXIE_HA" "$root" "$venv"
}

install_py311() {
  local py venv t0
  py="$(command -v python3.11 || command -v python3)"
  "$py" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' \
    || { log "py311 runtime needs Python 3.11, found $("$py" --version)"; return 1; }
  venv="$cache/venv-py3.11-ha-$PY311_HA-$(lock_hash "$PY311_LOCK")"
  if [ ! -f "$venv/.hamcp-ready" ]; then
    t0=$SECONDS
    log "installing Home Assistant $PY311_HA (Python 3.11) into $venv"
    rm -rf "$venv"
    "$py" -m venv "$venv"
    PIP_FIND_LINKS= "$venv/bin/pip" install -q --no-deps -r "$PY311_LOCK" >&2
    "$venv/bin/pip" check >&2
    touch "$venv/.hamcp-ready"
    find "$cache" -maxdepth 1 -name 'venv-py3.11-ha-*' ! -name "$(basename "$venv")" -exec rm -rf {} + 2>/dev/null || true
    log "Home Assistant $PY311_HA installed in $((SECONDS - t0))s"
  fi
  write_runtime py311 "$PY311_HA" "" "$venv"
}

# The runtime file start.sh sources: how to launch this HA.
write_runtime() {
  local f="$cache/runtime-$1.env"
  printf 'RHA_MODE=%s\nRHA_HA_VERSION=%s\nRHA_ROOT=%s\nRHA_VENV=%s\n' "$1" "$2" "$3" "$4" > "$f"
  echo "$f"
}

case "$runtime" in
  trixie) install_trixie ;;
  py311) install_py311 ;;
  auto)
    if ! install_trixie; then
      log "NOTE: Debian 13 runtime unavailable; falling back to Home Assistant $PY311_HA on Python 3.11"
      install_py311
    fi ;;
  *) log "HAMCP_REAL_HA_RUNTIME must be auto, trixie or py311 (got '$runtime')"; exit 2 ;;
esac
