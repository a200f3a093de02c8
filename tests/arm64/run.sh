#!/usr/bin/env bash
# The aarch64 build (Raspberry Pi and other 64-bit ARM Home Assistant hosts): cross-compiles hamcp
# and its unit tests with Debian's cross toolchain and arm64 libraries
# (cmake/toolchains/aarch64-linux-gnu.cmake), checks the result is an aarch64 executable, then
# runs every unit_* binary and a `hamcp --demo` MCP smoke under qemu-aarch64.
#
#   tests/arm64/run.sh [BUILD_DIR]        (default: $HAMCP_ARM64_BUILD_DIR or build-ci-arm64)
#
# tests/arm64/excluded.txt lists gtest filters too timing-bound for emulation, each with its reason.
# Needs: crossbuild-essential-arm64, the arm64 -dev packages and qemu-user (scripts/install-deps.sh).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-${HAMCP_ARM64_BUILD_DIR:-$root/build-ci-arm64}}"
for tool in aarch64-linux-gnu-g++ qemu-aarch64; do
  command -v "$tool" >/dev/null || { echo "arm64: $tool missing (scripts/install-deps.sh installs it)" >&2; echo "0 passed, 1 failed"; exit 1; }
done

start=$(date +%s)
# Unit tests only: the fuzz targets and benchmarks are x86-64 lanes' business.
if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHAMCP_BUILD_BENCH=OFF \
       -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" >/dev/null; then
  echo "arm64: cmake configure failed" >&2; echo "0 passed, 1 failed"; exit 1
fi
mapfile -t targets < <(ninja -C "$build" -t targets all | sed -n 's/^\(hamcp\|unit_[a-z_]*\): .*/\1/p' | sort -u)
if ! ninja -C "$build" -j"${JOBS:-$(nproc)}" "${targets[@]}"; then
  echo "arm64: build failed" >&2; echo "0 passed, 1 failed"; exit 1
fi
echo "arm64: built ${#targets[@]} targets in $(( $(date +%s) - start )) s"

# The file itself: an aarch64 ELF, not a host binary that slipped through.
machine="$(readelf -h "$build/hamcp" | sed -n 's/^ *Machine: *//p')"
if [ "$machine" != "AArch64" ]; then
  echo "arm64: $build/hamcp is built for '$machine', not AArch64" >&2; echo "0 passed, 1 failed"; exit 1
fi
echo "arm64: hamcp is an AArch64 executable ($(du -h "$build/hamcp" | cut -f1))"

# The .deb for arm64 hosts (and the add-on's aarch64 image, which installs it): packaged from the
# cross-built binary with arm64 dependencies.
deb_ok=0
debdir="$(mktemp -d)"; trap 'rm -rf "$debdir"' EXIT
if deb="$("$root/packaging/deb/build.sh" "$build/hamcp" "$debdir")"; then
  arch="$(dpkg-deb -f "$deb" Architecture)"; depends="$(dpkg-deb -f "$deb" Depends)"
  dpkg-deb -x "$deb" "$debdir/x"
  packed="$(readelf -h "$debdir/x/usr/bin/hamcp" | sed -n 's/^ *Machine: *//p')"
  if [ "$arch" = arm64 ] && [ "$packed" = AArch64 ] && grep -q 'libc6' <<<"$depends" && grep -q 'libssl3' <<<"$depends"; then
    echo "arm64: $(basename "$deb"): Architecture $arch, Depends: $depends"; deb_ok=1
  else
    echo "arm64: $(basename "$deb") is wrong: Architecture '$arch', binary '$packed', Depends '$depends'" >&2
  fi
else
  echo "arm64: packaging/deb/build.sh failed for the aarch64 binary" >&2
fi

# No -L: the binaries run with the multiarch arm64 runtime (libc6:arm64's /lib/ld-linux-aarch64.so.1
# and /usr/lib/aarch64-linux-gnu), the same set they were linked against; the cross toolchain's
# older libc under /usr/aarch64-linux-gnu mixed with it hangs at the first thread.
"$root/tests/qemu/emulated_run.sh" arm64 "$build" "$root/tests/arm64/excluded.txt" qemu-aarch64 >"$debdir/emulated.log" 2>&1
rc=$?
out="$(cat "$debdir/emulated.log")"
echo "$out"
read -r p f s < <(tail -n 1 <<<"$out" | awk '{print $1, $3, $5}')
p=$((p + deb_ok)); f=$((f + 1 - deb_ok))
echo "$p passed, $f failed, ${s:-0} skipped"
[ "$rc" -eq 0 ] && [ "$deb_ok" -eq 1 ]
