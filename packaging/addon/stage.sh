#!/usr/bin/env bash
# Stages hamcp's .deb for each architecture into addon/hamcp/ as hamcp_<BUILD_ARCH>.deb, the file
# the add-on's Dockerfile installs (a Supervisor build only sees the add-on's folder).
#   packaging/addon/stage.sh AMD64_BINARY [AARCH64_BINARY]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for bin in "$@"; do
  deb="$("$root/packaging/deb/build.sh" "$bin" "$out")"
  case "$deb" in
    *_amd64.deb) cp "$deb" "$root/addon/hamcp/hamcp_amd64.deb" ;;
    *_arm64.deb) cp "$deb" "$root/addon/hamcp/hamcp_aarch64.deb" ;;
  esac
  echo "stage: $(basename "$deb")"
done
