#!/usr/bin/env bash
# End-to-end tests with the official MCP client SDKs, against hamcp's conformance fixture server
# (hamcp's protocol core + transports) and hamcp itself, over stdio and Streamable HTTP:
#   TypeScript  @modelcontextprotocol/sdk (pinned in package-lock.json), node --test ts/*.test.mjs
#   Python      mcp 1.x (pinned in py/requirements.txt), pytest in a venv this script creates
# ts/error_sweep.test.mjs also runs the MCP Inspector CLI (pinned devDependency) for its
# schema-portability lint over hamcp's tools/list: 0 findings expected.
#
# Before them, bench/tools/catalog_tokens.mjs checks the catalogue's token budgets (each issue's
# share and the whole tools/list, o200k): over budget fails the lane.
#
#   tests/e2e/run.sh                         all
#   E2E_ONLY=ts|py|catalog tests/e2e/run.sh  one of them
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# Test traffic stays on loopback even if the environment names an HTTP proxy.
export NO_PROXY="127.0.0.1,localhost,::1" no_proxy="127.0.0.1,localhost,::1"
build="${HAMCP_BUILD_DIR:-$root/build-ci}"
only="${E2E_ONLY:-}"

set -e
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
ninja -C "$build" -j"${HAMCP_JOBS:-2}" mcp_fixture_server hamcp >/dev/null
export FIXTURE_BIN="$build/tests/conformance/mcp_fixture_server"
export HAMCP_BIN="$build/hamcp"
node_bin="$("$root/scripts/node22.sh")"
set +e

passed=0; failed=0; skipped=0; status=0

# npm ci in DIR when its package-lock.json changed since the last install (a stamp in node_modules).
npm_ci_cached() {
  local dir="$1" stamp="$1/node_modules/.hamcp-lock-sha" lock_sha
  lock_sha="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sha" ]; then
    ( cd "$dir" && PATH="$node_bin:$PATH" npm ci --no-audit --no-fund --loglevel=error ) || exit 1
    echo "$lock_sha" > "$stamp"
  fi
}

if [ -z "$only" ] || [ "$only" = catalog ]; then
  bench_tools="$root/bench/tools"
  npm_ci_cached "$bench_tools"
  echo "e2e[catalog]: token budgets (bench/tools/catalog_tokens.mjs)"
  ( cd "$bench_tools" && PATH="$node_bin:$PATH" node catalog_tokens.mjs ) 2>&1 | sed -n '/^-- issue budgets/,$p'
  if [ "${PIPESTATUS[0]}" -eq 0 ]; then
    passed=$((passed + 1)); echo "e2e[catalog]: within budget"
  else
    failed=$((failed + 1)); status=1; echo "e2e[catalog]: OVER BUDGET (or tools/list unreadable)"
  fi
fi

if [ "$only" != py ] && [ "$only" != catalog ]; then
  npm_ci_cached "$here"
  echo "e2e[ts]: node --test (TypeScript SDK $(sed -n 's/.*"@modelcontextprotocol\/sdk": "\(.*\)".*/\1/p' "$here/package.json"))"
  log="$(mktemp)"
  ( cd "$here" && PATH="$node_bin:$PATH" node --test --test-concurrency=1 --test-timeout=120000 \
      --test-reporter=spec ts/*.test.mjs ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  # node's spec reporter closes with "ℹ pass N", "ℹ fail N", "ℹ skipped N"
  p=$(sed -n 's/^ℹ pass \([0-9]*\)$/\1/p' "$log" | tail -1); f=$(sed -n 's/^ℹ fail \([0-9]*\)$/\1/p' "$log" | tail -1)
  s=$(sed -n 's/^ℹ skipped \([0-9]*\)$/\1/p' "$log" | tail -1)
  p=${p:-0}; f=${f:-0}; s=${s:-0}
  [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  [ "$rc" -ne 0 ] && status=1
  echo "e2e[ts]: $p passed, $f failed, $s skipped"
  rm -f "$log"
fi

# One Python SDK suite: LABEL, its folder under this directory, its venv (made from the folder's
# requirements.txt, remade when that file changes), then pytest with the counts added up.
run_py_suite() {
  local label="$1" dir="$here/$2" venv="$3" req_sha log rc last p f e s
  req_sha="$(sha256sum "$dir/requirements.txt" | cut -d' ' -f1)"
  if [ ! -f "$venv/.hamcp-req-sha" ] || [ "$(cat "$venv/.hamcp-req-sha")" != "$req_sha" ]; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv" || exit 1
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$dir/requirements.txt" || exit 1
    echo "$req_sha" > "$venv/.hamcp-req-sha"
  fi
  echo "e2e[$label]: pytest (Python SDK $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))'))"
  log="$(mktemp)"
  ( cd "$dir" && "$venv/bin/python" -m pytest -rs -p no:cacheprovider . ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  last="$(grep -E '^=+ .*(passed|failed|error|skipped).* in [0-9.]+s' "$log" | tail -1)"
  p=$(grep -oE '[0-9]+ passed' <<<"$last" | cut -d' ' -f1); f=$(grep -oE '[0-9]+ failed' <<<"$last" | cut -d' ' -f1)
  e=$(grep -oE '[0-9]+ errors?' <<<"$last" | cut -d' ' -f1); s=$(grep -oE '[0-9]+ skipped' <<<"$last" | cut -d' ' -f1)
  p=${p:-0}; f=$(( ${f:-0} + ${e:-0} )); s=${s:-0}
  # pytest exit 5 = no tests collected: that is a failure here, never a pass
  [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  [ "$rc" -ne 0 ] && status=1
  echo "e2e[$label]: $p passed, $f failed, $s skipped"
  rm -f "$log"
}

if [ "$only" != ts ] && [ "$only" != catalog ]; then
  run_py_suite py py "${E2E_VENV:-$build/e2e-venv}"
  # The Python SDK 2.x (MCP 2026-07-28 first, falling back to initialize): its own venv.
  run_py_suite py2 py2 "${E2E_VENV2:-$build/e2e-venv-py2}"
fi

echo "$passed passed, $failed failed, $skipped skipped"
exit $status
