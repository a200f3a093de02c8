#!/usr/bin/env bash
# Vendors rapidfuzz-cpp 3.3.2 (header-only, MIT) from Debian 13's archive into
# third_party/rapidfuzz without touching the system's apt configuration, and
# checks the package's sha256.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/third_party/rapidfuzz"
[ -f "$dest/usr/include/rapidfuzz/fuzz.hpp" ] && exit 0
sha=909041dd6c21f361ea951ca97d622e5ba8500dc698b40121338c5c91507e4ccc
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/etc/preferences.d"
# Reuse the Debian mirror this machine already uses, asking it for trixie.
mirror="$( (grep -hoE '^(URIs:|deb)[[:space:]]+[^[:space:]]+/debian/?([[:space:]]|$)' \
  /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null || true) \
  | awk '{print $2}' | head -n 1 || true)"
[ -n "$mirror" ] || { echo "fetch-rapidfuzz: no Debian mirror found in the apt sources" >&2; exit 1; }
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" > "$work/sources.list"
aptopts=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o Dir::Etc::Preferences="$work/etc/preferences" -o Dir::Etc::PreferencesParts="$work/etc/preferences.d"
  -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" -o Debug::NoLocking=1)
apt-get "${aptopts[@]}" update -qq >&2
( cd "$work" && apt-get "${aptopts[@]}" download librapidfuzz-cpp-dev=3.3.2-1 >&2 )
deb="$(ls "$work"/librapidfuzz-cpp-dev_*.deb)"
echo "$sha  $deb" | sha256sum -c --quiet -
mkdir -p "$dest"
dpkg-deb -x "$deb" "$dest"
echo "fetch-rapidfuzz: vendored into $dest" >&2
