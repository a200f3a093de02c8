#!/usr/bin/env bash
# Makes (once) a clean Debian 12 root with systemd, as a tarball under ~/.cache/hamcp-package, and
# prints its path. Several callers may run at once (test.sh starts it early in the background, the
# package lane calls it again): one makes it under a lock, the others wait for it.
set -euo pipefail
cache="${HAMCP_PACKAGE_CACHE:-$HOME/.cache/hamcp-package}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
base="$cache/bookworm-systemd.tar"
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock -w 1800 9 || { echo "prepare-root: timed out waiting for another debootstrap" >&2; exit 1; }
if [ ! -f "$base" ]; then
  tmp="$(mktemp -d "$cache/root.XXXX")"
  echo "prepare-root: debootstrap bookworm (first run only)" >&2
  if ! debootstrap --variant=minbase --include=systemd bookworm "$tmp" "$mirror" >"$cache/debootstrap.log" 2>&1; then
    tail -20 "$cache/debootstrap.log" >&2
    rm -rf "$tmp"
    exit 1
  fi
  tar -C "$tmp" -cf "$base.part" . && mv "$base.part" "$base"
  rm -rf "$tmp"
fi
echo "$base"
