#!/usr/bin/env bash
# Builds hamcp's .deb from a built binary: /usr/bin/hamcp, the hardened systemd unit
# (hamcp.service: a dynamic unprivileged user, private state dir) and /etc/hamcp/hamcp.env
# (a conffile, root-only: it holds the Home Assistant token). Depends are computed by
# dpkg-shlibdeps from the binary's shared libraries, so they match the machine it was built on.
#
#   packaging/deb/build.sh BINARY OUT_DIR        -> OUT_DIR/hamcp_<version>_<arch>.deb
# The architecture is the binary's (amd64 or arm64), so a cross-built binary packages as well.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$(realpath "${1:?usage: build.sh BINARY OUT_DIR}")"
out="$(mkdir -p "${2:?usage: build.sh BINARY OUT_DIR}" && realpath "$2")"

case "$(readelf -h "$bin" | sed -n 's/^ *Machine: *//p')" in
  *X86-64*) arch=amd64 ;;
  *AArch64*) arch=arm64 ;;
  *) echo "build.sh: $bin is neither x86-64 nor AArch64" >&2; exit 1 ;;
esac
version="$(sed -n 's/^project(hamcp VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
[ -n "$version" ] || { echo "build.sh: no version in CMakeLists.txt" >&2; exit 1; }

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
pkg="$stage/pkg"
install -D -m 0755 "$bin" "$pkg/usr/bin/hamcp"
strip --strip-unneeded "$pkg/usr/bin/hamcp" 2>/dev/null || aarch64-linux-gnu-strip --strip-unneeded "$pkg/usr/bin/hamcp"
install -D -m 0644 "$here/hamcp.service" "$pkg/lib/systemd/system/hamcp.service"
install -D -m 0600 "$here/hamcp.env" "$pkg/etc/hamcp/hamcp.env"
install -D -m 0644 "$root/README.md" "$pkg/usr/share/doc/hamcp/README.md"
install -D -m 0644 "$here/copyright" "$pkg/usr/share/doc/hamcp/copyright"

# dpkg-shlibdeps wants a source tree with debian/control; a throwaway one is enough.
mkdir -p "$stage/src/debian"
printf 'Source: hamcp\n\nPackage: hamcp\nArchitecture: any\n' > "$stage/src/debian/control"
shlib_args=()
[ "$arch" = arm64 ] && shlib_args+=(-l/usr/lib/aarch64-linux-gnu)
depends="$(cd "$stage/src" && dpkg-shlibdeps -O "${shlib_args[@]}" "$pkg/usr/bin/hamcp" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "build.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

mkdir -p "$pkg/DEBIAN"
echo "/etc/hamcp/hamcp.env" > "$pkg/DEBIAN/conffiles"
size="$(du -sk "$pkg" | cut -f1)"
cat > "$pkg/DEBIAN/control" <<CONTROL
Package: hamcp
Version: $version
Architecture: $arch
Maintainer: hamcp developers <hamcp@localhost>
Installed-Size: $size
Depends: $depends
Section: net
Priority: optional
Description: Model Context Protocol server for Home Assistant
 Gives AI assistants (Claude, ChatGPT, Cursor, any MCP client) safe, fast control of a
 Home Assistant instance, over stdio or Streamable HTTP. The hamcp service serves HTTP on
 127.0.0.1:8086/mcp; set the Home Assistant URL and token in /etc/hamcp/hamcp.env, then
 run: systemctl enable --now hamcp
CONTROL
deb="$out/hamcp_${version}_${arch}.deb"
dpkg-deb --root-owner-group --build "$pkg" "$deb" >/dev/null
echo "$deb"
