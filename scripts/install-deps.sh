#!/usr/bin/env bash
# Installs everything hamcp's build and tests need on a fresh Debian 12 machine.
# Idempotent: re-running skips what is already there. Needs root (CI runs as root).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

APT_PACKAGES=(
  g++ cmake ninja-build ccache pkg-config binutils
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libssl-dev
  libspdlog-dev libfmt-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libyaml-dev libmimalloc-dev
  clang-14 clang-tidy-14 clang-format-14 libclang-rt-14-dev gcovr qemu-user
  curl ca-certificates python3 python3-venv python3-pip python3-yaml nodejs npm openssl procps
  debootstrap dpkg-dev jq nginx
)
# The aarch64 build (tests/arm64): Debian's cross toolchain and the arm64 builds of the libraries,
# installed beside the native ones (multiarch). Header-only packages (CLI11, nlohmann-json) are
# shared by both architectures.
ARM64_PACKAGES=(
  crossbuild-essential-arm64 libboost1.81-dev:arm64 libboost-json1.81-dev:arm64 libboost-url1.81-dev:arm64
  libssl-dev:arm64 libspdlog-dev:arm64 libfmt-dev:arm64 libyaml-dev:arm64 libgtest-dev:arm64 libgmock-dev:arm64
  libmimalloc-dev:arm64
)

# dpkg-query -W, not dpkg -s: with arm64 added, `dpkg -s libssl-dev` is ambiguous (two instances).
installed() { dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null | grep -qx installed; }
missing=()
for p in "${APT_PACKAGES[@]}"; do
  # Node may come from another .deb (e.g. NodeSource's nodejs, which Provides npm): asking apt for
  # Debian's npm then fails on conflicts, so an installed node/npm counts as present.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  installed "$p" || missing+=("$p")
done
for p in "${ARM64_PACKAGES[@]}"; do
  installed "$p" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: apt-get install ${missing[*]}" >&2
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
  apt-get update -qq
  # nginx is a test tool here (tests/replicas, tests/addon start their own on loopback): keep apt
  # from starting Debian's nginx service on port 80.
  policy=/usr/sbin/policy-rc.d
  [ -e "$policy" ] || { printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod +x "$policy"; trap 'rm -f "$policy"' EXIT; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# rapidfuzz-cpp (header-only) is not in Debian 12: vendored from Debian 13's archive.
"$here/scripts/fetch-rapidfuzz.sh"
