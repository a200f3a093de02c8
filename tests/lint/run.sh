#!/usr/bin/env bash
# The lint lane: the code follows .clang-format, and clang-tidy (.clang-tidy: bugprone-*,
# readability-function-size) finds nothing in src/, tests/ and bench/, and git tracks no symlinks
# or build outputs.
#   tests/lint/run.sh            both checks
#   tests/lint/run.sh --fix      rewrite the files with clang-format instead of checking them
# Exit 0 only with zero findings. Prints "N passed, N failed" (one per check).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
jobs="${HAMCP_JOBS:-2}"
format=clang-format-14
files=$(git ls-files '*.cpp' '*.hpp' | grep -E '^(src|tests|bench)/' | grep -v '^third_party/')
passed=0; failed=0

if [ "${1:-}" = "--fix" ]; then
  echo "$files" | xargs "$format" -i
  exit 0
fi

# The tree: build outputs and symlinks never belong in git (a committed link to a local build
# dir once looped in CI's fresh clone and failed four lanes).
stray=$(git ls-files -s | awk '$1 == "120000" {print $4}'; git ls-files | grep -E '^build' || true)
if [ -z "$stray" ]; then
  passed=$((passed + 1)); echo "lint: tree: no symlinks or build outputs tracked"
else
  failed=$((failed + 1)); echo "$stray" | head -20
  echo "lint: tree: the paths above must not be tracked (fix: git rm --cached PATH)"
fi

echo "lint: clang-format ($(echo "$files" | wc -l) files)"
if echo "$files" | xargs "$format" --dry-run --Werror 2> "${TMPDIR:-/tmp}/lint-format.log"; then
  passed=$((passed + 1)); echo "lint: format: clean"
else
  failed=$((failed + 1))
  grep -E '^[^ ].*: (error|warning):' "${TMPDIR:-/tmp}/lint-format.log" | cut -d: -f1 | sort | uniq -c | head -30
  echo "lint: format: the files above differ from .clang-format (fix: tests/lint/run.sh --fix)"
fi

# clang-tidy needs a compile database; configuring (no build) with clang gives one.
db="${HAMCP_LINT_BUILD_DIR:-$root/build-lint}"
cmake -S "$root" -B "$db" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
log="$db/clang-tidy.log"
# Results are cached per translation unit (tests/lint/tidy_cached.py): only TUs whose text,
# headers or flags changed since a previous run are analysed again.
if nice python3 "$root/tests/lint/tidy_cached.py" "$db" "$root" -j "$jobs" > "$log" 2>&1; then
  passed=$((passed + 1)); head -1 "$log"; echo "lint: clang-tidy: 0 findings"
else
  failed=$((failed + 1))
  head -100 "$log"
  echo "lint: clang-tidy: $(($(wc -l < "$log") - 1)) findings (full log: $log)"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
