"""CI's check that the side-by-side benchmark still works end to end (bench/peer/run.sh --smoke):
every measure has a hamcp figure, and the peer has either figures or a recorded reason.
Prints one line per check and a closing 'N passed, N failed' line; exit 1 on any failure."""

import json
import sys

results = json.load(open(sys.argv[1]))
size = results["sizes"][0]["servers"]
checks = []


def check(name, ok):
    checks.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {name}")


h = size.get("hamcp", {})
runs = results.get("config", {}).get("repeats", 0)
check("hamcp cold start measured", h.get("cold_start", {}).get("seconds", {}).get("n", 0) > 0)
check(f"hamcp measured on every one of its {runs} repeated runs",
      runs >= 2 and len(h.get("runs", [])) == runs and not h.get("failed_runs"))
check("hamcp first call after start measured", h.get("first_call_seconds", {}).get("n", 0) == runs)
for call in ["search", "overview", "state", "call_service"]:
    lat = h.get("latency", {}).get(call, {})
    check(f"hamcp {call} latency measured on every run without failures",
          lat.get("p50", {}).get("n", 0) == runs and lat.get("failures") == 0)
check("hamcp RSS measured", h.get("rss_peak", {}).get("median", 0) > 0)
check("hamcp throughput measured without errors",
      bool(h.get("throughput")) and all(t["calls_per_s"].get("n", 0) == runs and t["calls_per_s"]["min"] > 0
                                         and t["errors"] == 0 for t in h["throughput"]))
check("hamcp catalogue tokens counted", h.get("catalogue", {}).get("tokens", 0) > 0)
check("hamcp answered all representative questions", all(r["ok"] for r in h.get("responses", [{"ok": False}])))
check("hamcp search quality measured", h.get("quality", {}).get("queries", 0) >= 100)
seed = h.get("seed_scenario", {})
check("hamcp seed scenario: session survived every SIGKILL restart",
      seed.get("session_survived") is True and seed.get("failed_after_restart", {}).get("max") == 0)
peer = size.get("ha-mcp")
check("peer measured or its absence recorded",
      (peer is not None and "cold_start" in peer) or results.get("peer_version", "").startswith("unavailable"))
failed = checks.count(False)
print(f"peer-smoke: {checks.count(True)} passed, {failed} failed")
sys.exit(1 if failed else 0)
