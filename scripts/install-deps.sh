#!/usr/bin/env bash
# Installs everything hamcp's build and tests need on a fresh Debian 12 machine.
# Idempotent: re-running skips what is already there. Needs root (CI runs as root).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

APT_PACKAGES=(
  g++ cmake ninja-build ccache pkg-config binutils
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libssl-dev
  libspdlog-dev libfmt-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libyaml-dev
  clang-14 clang-tidy-14 clang-format-14 libclang-rt-14-dev gcovr qemu-user
  curl ca-certificates python3 python3-venv python3-pip python3-yaml nodejs npm openssl procps
  debootstrap dpkg-dev jq nginx
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  # Node may come from another .deb (e.g. NodeSource's nodejs, which Provides npm): asking apt for
  # Debian's npm then fails on conflicts, so an installed node/npm counts as present.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: apt-get install ${missing[*]}" >&2
  apt-get update -qq
  # nginx is a test tool here (tests/replicas, tests/addon start their own on loopback): keep apt
  # from starting Debian's nginx service on port 80.
  policy=/usr/sbin/policy-rc.d
  [ -e "$policy" ] || { printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod +x "$policy"; trap 'rm -f "$policy"' EXIT; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# rapidfuzz-cpp (header-only) is not in Debian 12: vendored from Debian 13's archive.
"$here/scripts/fetch-rapidfuzz.sh"
