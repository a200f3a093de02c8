#!/usr/bin/env bash
# The .deb (packaging/deb): it installs with apt into a clean Debian 12 root made by debootstrap
# (cached under ~/.cache/hamcp-package, so only the first run downloads), `hamcp --version` runs
# there, the unit passes `systemd-analyze verify` in that root, `systemd-analyze security` scores
# it (printed; it must stay "OK" or better, i.e. exposure < 3.0), and the installed hamcp serves
# MCP as an unprivileged user from a 0700 state dir, the way the unit runs it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${HAMCP_BUILD_DIR:-$root/build-ci}"

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
ninja -C "$build" -j"${HAMCP_JOBS:-2}" hamcp >/dev/null
# The shipped binary's dynamic symbols: none of its own, every one shared with a library exported.
"$root/scripts/check-exports.sh" "$build/hamcp" | sed 's/^/package: /'
deb="$("$root/packaging/deb/build.sh" "$build/hamcp" "$build/package")"
echo "package: built $(basename "$deb") ($(du -k "$deb" | cut -f1) KB)"
# HAMCP_STATIC_RUNTIME (cmake/static_runtime.cmake, default ON): the C++ runtime is inside hamcp, so
# the package needs no shared C++ library, while OpenSSL and libyaml stay the system's (their
# security updates reach hamcp without a rebuild).
depends="$(dpkg-deb -f "$deb" Depends)"
if grep -q '^HAMCP_STATIC_RUNTIME:BOOL=ON' "$build/CMakeCache.txt"; then
  if grep -Eq 'libstdc\+\+|libgcc-s|libspdlog|libfmt|libboost' <<<"$depends" || ! grep -q 'libssl3' <<<"$depends" ||
     ! grep -q 'libyaml' <<<"$depends"; then
    echo "package: Depends should name no C++ library but libssl3 and libyaml: $depends" >&2; exit 1
  fi
  echo "package: Depends (no shared C++ library): $depends"
fi
# cmake/allocator.cmake: where the build found mimalloc, hamcp loads it and the package pulls it in.
if grep -q '^HAMCP_MIMALLOC_LIBRARY:FILEPATH=/' "$build/CMakeCache.txt"; then
  if ! ldd "$build/hamcp" | grep -q 'libmimalloc' || ! grep -q 'libmimalloc' <<<"$depends"; then
    echo "package: hamcp should load mimalloc and the package depend on it: $depends" >&2; exit 1
  fi
  echo "package: hamcp runs on mimalloc (Depends names it)"
fi

# A clean Debian 12 root with systemd (for verify), made once and kept as a tarball. test.sh starts
# prepare-root.sh in the background at its start (it is mostly downloading); here it is waited for.
base="$("$here/prepare-root.sh")"
chroot_dir="$(mktemp -d)"
cleanup() {
  for m in proc dev; do umount -l "$chroot_dir/$m" 2>/dev/null || true; done
  rm -rf "$chroot_dir"
}
trap cleanup EXIT
tar -C "$chroot_dir" -xf "$base"
chmod 755 "$chroot_dir"  # the tarball's "." came from a 0700 temp dir; it is / for the user below
mount -t proc proc "$chroot_dir/proc"
mount --bind /dev "$chroot_dir/dev"
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
cp "$deb" "$chroot_dir/tmp/"
in_root() { chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }

in_root apt-get -qq update >/dev/null
DEBIAN_FRONTEND=noninteractive in_root apt-get -qq install -y --no-install-recommends "/tmp/$(basename "$deb")" >/dev/null
echo "package: installed into a clean Debian 12 root: $(in_root hamcp --version)"
[ "$(in_root stat -c %a /etc/hamcp/hamcp.env)" = 600 ] || { echo "package: hamcp.env is not 0600" >&2; exit 1; }
in_root systemd-analyze verify /lib/systemd/system/hamcp.service
echo "package: systemd-analyze verify: clean"
score="$(in_root systemd-analyze security --offline=yes hamcp.service 2>&1 | sed -n 's/.*Overall exposure level for hamcp.service: \([0-9.]*\) \(.*\)$/\1 \2/p')"
echo "package: systemd-analyze security: exposure $score"
awk -v s="${score%% *}" 'BEGIN { exit !(s != "" && s < 3.0) }' || { echo "package: exposure above 3.0" >&2; exit 1; }

# As the unit runs it: an unprivileged user, HAMCP_DATA_DIR a 0700 dir of its own, HTTP on loopback.
in_root install -d -m 0700 -o 65534 -g 65534 /var/lib/private-hamcp
port=$(( 20000 + RANDOM % 20000 ))
chroot --userspec=65534:65534 "$chroot_dir" /usr/bin/env -i HOME=/nonexistent HAMCP_DATA_DIR=/var/lib/private-hamcp \
  MCP_PORT="$port" /usr/bin/hamcp --http --demo >"$build/package/serve.log" 2>&1 &
pid=$!
ok=""
for _ in $(seq 1 100); do
  if curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/mcp" -H 'Content-Type: application/json' \
      -H 'Accept: application/json, text/event-stream' \
      -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
      | grep -q 200; then ok=1; break; fi
  sleep 0.1
done
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
[ -n "$ok" ] || { echo "package: the installed hamcp did not answer initialize" >&2; cat "$build/package/serve.log" >&2; exit 1; }
[ "$(in_root stat -c '%a %u' /var/lib/private-hamcp/session.key)" = "600 65534" ] ||
  { echo "package: session.key is not 0600 and owned by the service user" >&2; exit 1; }
echo "package: the installed hamcp answers MCP as uid 65534 with its key 0600 in its state dir"
echo "1 passed, 0 failed, 0 skipped"
