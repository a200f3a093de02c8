"""Side-by-side benchmark of hamcp and ha-mcp on the same simulated homes (issue 5).

Both servers are driven by the same official MCP client (PyPI `mcp`) over stdio and Streamable
HTTP, against one `hamcp sim` per home size. Every figure is the median of repeated runs with min
and max; where the peer fails or lacks a capability, that is recorded as the result.
Writes results.json; report.py turns it into REPORT.md and plots.

  python bench.py --hamcp BIN --peer-bin DIR --out DIR [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from client import (entity_ids_in_order, http_session, result_bytes, result_bytes_with_structured, result_json,
                    stdio_session, timed_call)
from servers import HttpServer, SimHome, end_detached_peer_helpers, rss_kib, server_specs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
QUERIES = ROOT / "tests/unit/search/queries.tsv"
# Bounds that keep a full run finite even when a server is very slow on a big home.
CASE_BUDGET_S = 30.0     # per latency case and run
MIN_SAMPLES = 3
MIXED_BUDGET_S = 90.0    # for the 1,000 mixed calls of one run
THROUGHPUT_GRACE_S = 5.0  # a call still running this long after the deadline is abandoned


# --- statistics ---------------------------------------------------------------------------------

def over_runs(values: list) -> dict:
    """Median (min-max) of one figure taken once per repeated run; None values (a failed run)
    are left out and counted."""
    got = [v for v in values if v is not None]
    if not got:
        return {"n": 0, "failed_runs": len(values)}
    return {"n": len(got), "median": statistics.median(got), "min": min(got), "max": max(got),
            "runs": values, "failed_runs": len(values) - len(got)}


def summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    s = sorted(values)
    pick = lambda q: s[min(len(s) - 1, int(round(q * (len(s) - 1))))]  # noqa: E731
    return {"n": len(s), "median": statistics.median(s), "min": s[0], "max": s[-1],
            "p50": pick(0.50), "p99": pick(0.99)}


# --- the home both servers see ---------------------------------------------------------------

def sample_entities(sim: SimHome) -> dict[str, str]:
    """Picks real entity ids of the home for the representative questions."""
    req = urllib.request.Request(f"{sim.url}/api/states", headers={"Authorization": f"Bearer {sim.token}"})
    with urllib.request.urlopen(req, timeout=60) as r:
        states = json.load(r)
    first = {}
    for s in states:
        eid = s["entity_id"]
        domain = eid.split(".", 1)[0]
        key = domain
        if domain == "sensor" and s.get("attributes", {}).get("device_class") == "temperature":
            key = "temperature_sensor"
        first.setdefault(key, eid)
    first["count"] = str(len(states))
    return first


def args_for(server: str, tool: str, args: dict) -> dict:
    """Arguments in each server's own vocabulary (both follow ha-mcp 8.x names where they exist)."""
    return args


def representative_questions(ents: dict[str, str]) -> list[tuple[str, str, dict]]:
    light = ents.get("light", "light.none")
    temp = ents.get("temperature_sensor", ents.get("sensor", "sensor.none"))
    return [
        ("search 'kitchen light'", "ha_search", {"query": "kitchen light", "limit": 10}),
        ("search 'temperature'", "ha_search", {"query": "temperature", "limit": 10}),
        ("search typo 'livng room lihgt'", "ha_search", {"query": "livng room lihgt", "limit": 10}),
        ("overview (default)", "ha_get_overview", {}),
        ("state of a light", "ha_get_state", {"entity_id": light}),
        ("state of a temperature sensor", "ha_get_state", {"entity_id": temp}),
        ("light services", "ha_list_services", {"domain": "light"}),
        ("history of a sensor, 24h", "ha_get_history", {"entity_ids": [temp], "start_time": "24h"}),
        ("logbook, last hours", "ha_get_logs", {"source": "logbook", "limit": 20}),
        ("template", "ha_eval_template", {"template": "{{ states('" + light + "') }}"}),
    ]


# --- measures -----------------------------------------------------------------------------------

async def cold_start(spec, runs: int) -> dict:
    """1. spawn over stdio -> first tools/list response."""
    times, errors = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        try:
            async with stdio_session(spec.stdio_cmd, spec.stdio_env()) as s:
                await s.list_tools()
                times.append(time.perf_counter() - t0)
        except Exception as e:  # noqa: BLE001
            errors.append(repr(e)[:300])
    return {"seconds": summary(times), "errors": errors}


async def catalogue(session) -> dict:
    """6a. tools/list: tool count, bytes and (later, in node) tokens of the whole catalogue."""
    tools, cursor = [], None
    while True:
        page = await session.list_tools(cursor=cursor) if cursor else await session.list_tools()
        tools.extend(t.model_dump(exclude_none=True, by_alias=True) for t in page.tools)
        cursor = page.nextCursor
        if not cursor:
            break
    text = json.dumps({"tools": tools}, separators=(",", ":"))
    return {"tools": len(tools), "bytes": len(text.encode()), "json": text}


async def latencies(session, server: str, ents: dict, iters: int) -> dict:
    """3. p50/p99 of search, overview, state and service call."""
    light = ents.get("light", "light.none")
    cases = {
        "search": ("ha_search", {"query": "kitchen light", "limit": 10}),
        "overview": ("ha_get_overview", {}),
        "state": ("ha_get_state", {"entity_id": light}),
        "call_service": ("ha_call_service", {"domain": "light", "service": "toggle", "entity_id": light}),
    }
    out = {}
    for name, (tool, args) in cases.items():
        times, failures, last_error = [], 0, None
        budget_end = time.monotonic() + CASE_BUDGET_S
        for i in range(iters):
            if i >= MIN_SAMPLES and time.monotonic() > budget_end:
                break  # a slow server gets fewer samples, never an unbounded run
            dt, ok, res = await timed_call(session, tool, args_for(server, tool, args))
            times.append(dt)
            if not ok:
                failures += 1
                last_error = str(res)[:300]
        out[name] = {"seconds": summary(times), "failures": failures, "last_error": last_error}
    return out


async def mixed_calls(session, server: str, ents: dict, count: int) -> int:
    """2. drive `count` mixed calls (for RSS after load), bounded by MIXED_BUDGET_S."""
    questions = representative_questions(ents)
    failures, done = 0, 0
    budget_end = time.monotonic() + MIXED_BUDGET_S
    for i in range(count):
        if time.monotonic() > budget_end:
            break
        _, tool, args = questions[i % len(questions)]
        _, ok, _ = await timed_call(session, tool, args_for(server, tool, args))
        failures += 0 if ok else 1
        done += 1
    return {"calls": done, "failures": failures}


async def throughput(url: str, server: str, clients: int, seconds: float, ents: dict) -> dict:
    """4. closed loop: `clients` sessions each calling ha_search for `seconds`. Only calls that
    complete by the deadline count; a call still running at the deadline gets THROUGHPUT_GRACE_S
    more and is then abandoned through the SDK's read timeout (counted as unfinished, not as an
    error), so a slow server cannot stretch a run far past its duration."""
    args = args_for(server, "ha_search", {"query": "bedroom lamp", "limit": 5})
    ok_count, errors, unfinished, lat = 0, 0, 0, []
    started = asyncio.Event()
    ready = 0
    deadline = 0.0

    def one_more_ready():
        nonlocal ready, deadline
        ready += 1
        if ready == clients:  # start the clock once every session is open (or has failed)
            deadline = time.monotonic() + seconds
            started.set()

    async def one_client():
        nonlocal ok_count, errors, unfinished
        counted = False
        try:
            async with http_session(url) as s:
                counted = True
                one_more_ready()
                await started.wait()  # every session is open before the clock starts
                while time.monotonic() < deadline:
                    left = deadline + THROUGHPUT_GRACE_S - time.monotonic()
                    dt, ok, _ = await timed_call(s, "ha_search", args, timeout=left)
                    if time.monotonic() > deadline:
                        unfinished += 1
                        break
                    lat.append(dt)
                    ok_count += ok
                    errors += not ok
        except Exception:  # noqa: BLE001 - a client that cannot connect counts as an error
            errors += 1
            if not counted:
                one_more_ready()

    await asyncio.wait_for(asyncio.gather(*(one_client() for _ in range(clients))), seconds + 180)
    return {"clients": clients, "seconds": seconds, "ok": ok_count, "errors": errors,
            "unfinished_at_deadline": unfinished, "calls_per_s": ok_count / seconds,
            "latency": summary(lat)}


async def seed_scenario(spec, parallel: int = 20) -> dict:
    """5. The first seed document: parallel searches while the server is SIGKILLed and restarted.
    Speaks Streamable HTTP directly (httpx) so that what is measured is the server: the SDK's
    client tears its whole session down when a connection drops mid-stream, which would hide
    whether the server still honours the session. One initialize, one session id, never re-sent."""
    import httpx

    srv = HttpServer(spec)
    srv.start()
    result = {"parallel": parallel}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    next_id = iter(range(1, 1_000_000))

    def parse(resp: httpx.Response) -> dict:
        if resp.headers.get("content-type", "").startswith("text/event-stream"):
            for line in resp.text.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    msg = json.loads(line[5:])
                    if "id" in msg:
                        return msg
            return {}
        return resp.json()

    try:
        async with httpx.AsyncClient(timeout=60) as http:
            init = {"jsonrpc": "2.0", "id": next(next_id), "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "hamcp-bench", "version": "1"}}}
            r = await http.post(srv.url, json=init, headers=headers)
            sid = r.headers.get("mcp-session-id")
            parse(r)
            h = dict(headers, **({"Mcp-Session-Id": sid} if sid else {}))
            h["MCP-Protocol-Version"] = "2025-06-18"
            await http.post(srv.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h)
            queries = ["kitchen light", "bedroom", "temperature", "door", "garage"]

            async def call(i: int) -> str | None:
                body = {"jsonrpc": "2.0", "id": next(next_id), "method": "tools/call", "params": {
                    "name": "ha_search", "arguments": args_for(spec.name, "ha_search",
                                                               {"query": queries[i % len(queries)], "limit": 5})}}
                try:
                    resp = await http.post(srv.url, json=body, headers=h)
                    if resp.status_code != 200:
                        return f"HTTP {resp.status_code}: {resp.text[:120]}"
                    msg = parse(resp)
                    if "error" in msg:
                        return f"JSON-RPC error {msg['error']}"
                    if msg.get("result", {}).get("isError"):
                        return "isError result"
                    return None
                except httpx.HTTPError as e:
                    return f"{type(e).__name__}"

            async def batch() -> list[str]:
                return [e for e in await asyncio.gather(*(call(i) for i in range(parallel))) if e]

            # Warm-up batch, then `parallel` workers search in a closed loop; the server is
            # SIGKILLed 1 s in and restarted at once; the workers carry on with the same session
            # id (never re-initializing) until 2 s after the server is back. A call that fails
            # once the restarted server is listening is a client the server has stranded.
            before = await batch()
            calls: list[tuple[float, str | None]] = []  # (sent at, error or None)
            restarted_at: float | None = None
            hard_end = time.monotonic() + 90.0

            def running() -> bool:
                now = time.monotonic()
                return now < hard_end and (restarted_at is None or now < restarted_at + 2.0)

            async def worker(i: int) -> None:
                while running():
                    sent = time.monotonic()
                    err = await call(i)
                    calls.append((sent, err))
                    if err:
                        await asyncio.sleep(0.05)  # bounded retry rate while the server is down

            workers = [asyncio.create_task(worker(i)) for i in range(parallel)]
            await asyncio.sleep(1.0)
            killed_at = time.monotonic()
            srv.kill()
            restart_s = await asyncio.to_thread(srv.start)
            restarted_at = time.monotonic()
            await asyncio.gather(*workers)
            in_flight_at_kill = [e for t, e in calls if t < killed_at and e]
            during = [e for t, e in calls if killed_at <= t < restarted_at and e]
            after = [e for t, e in calls if t >= restarted_at and e]
            ok_after = sum(1 for t, e in calls if t >= restarted_at and not e)
            result.update({
                "session_id_issued": bool(sid),
                "failed_before": len(before),
                "calls_total": len(calls),
                "failed_in_flight_at_kill": len(in_flight_at_kill),
                "failed_during_restart": len(during),
                "failed_after_restart": len(after),
                "ok_after_restart": ok_after,
                "restart_seconds": round(restart_s, 3),
                # The same session id is used throughout and initialize is never re-sent.
                "session_survived": ok_after > 0 and len(after) == 0,
                "after_errors": sorted(set(after))[:3],
            })
    except Exception as e:  # noqa: BLE001
        result["error"] = repr(e)[:300]
    finally:
        srv.stop()
    return result


def load_queries() -> list[tuple[str, str, list[str]]]:
    rows = []
    for line in QUERIES.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        home, category, query, expected = line.split("\t")
        rows.append((home, query, expected.split(",")))
    return rows


async def search_quality(session, server: str, home: str) -> dict:
    """7. Recall@1, Recall@5, MRR on the labelled query set of this home."""
    rows = [r for r in load_queries() if r[0] == home]
    r1 = r5 = mrr = 0.0
    failures = 0
    for _, query, expected in rows:
        _, ok, res = await timed_call(session, "ha_search", args_for(server, "ha_search",
                                                                      {"query": query, "limit": 10}))
        if not ok:
            failures += 1
            continue
        ranked = [e for e in entity_ids_in_order(result_json(res))]
        rank = next((i + 1 for i, e in enumerate(ranked) if e in expected), None)
        if rank:
            r1 += rank == 1
            r5 += rank <= 5
            mrr += 1.0 / rank
    n = len(rows) or 1
    return {"queries": len(rows), "recall_at_1": r1 / n, "recall_at_5": r5 / n, "mrr": mrr / n,
            "failed_calls": failures}


async def response_sizes(session, server: str, ents: dict) -> list[dict]:
    """6b. response bytes for the same 10 representative questions."""
    out = []
    for label, tool, args in representative_questions(ents):
        dt, ok, res = await timed_call(session, tool, args_for(server, tool, args))
        out.append({"question": label, "tool": tool, "ok": ok, "seconds": dt,
                    "bytes": result_bytes(res) if ok else None,
                    "bytes_with_structured": result_bytes_with_structured(res) if ok else None,
                    # How many entities the answer names: fewer bytes for an empty answer is no win.
                    "entities_named": len(entity_ids_in_order(result_json(res))) if ok else None,
                    "error": None if ok else str(getattr(res, "content", res))[:300]})
    return out


# --- orchestration --------------------------------------------------------------------------------

async def first_call(session, server: str) -> dict:
    """The first ha_search after start, timed on its own: for hamcp it includes waiting for the
    mirror's initial sync, for ha-mcp its first download of the states. Kept out of the latency
    runs so that those show steady state."""
    dt, ok, res = await timed_call(session, "ha_search", args_for(server, "ha_search",
                                                                   {"query": "kitchen light", "limit": 10}))
    return {"seconds": dt, "ok": ok, "error": None if ok else str(res)[:300]}


def combine_runs(runs: list[dict]) -> dict:
    """Per-server result for one home size: every figure as median (min-max) over the runs,
    plus the raw runs."""
    out: dict = {"runs": runs}
    pick = lambda *path: [get_path(r, *path) for r in runs]  # noqa: E731
    out["http_start_seconds"] = over_runs(pick("http_start_seconds"))
    out["first_call_seconds"] = over_runs([r["first_call"]["seconds"] if get_path(r, "first_call", "ok") else None
                                           for r in runs])
    for key, field in [("rss_after_start", "rss_kib"), ("rss_after_first_call", "rss_kib"),
                       ("rss_after_mixed", "rss_kib"), ("rss_peak", "peak_kib")]:
        out[key] = over_runs(pick(key, field))
    out["mixed"] = {"calls": over_runs(pick("mixed", "calls")), "failures": sum(v or 0 for v in pick("mixed", "failures"))}
    cases = {}
    for case in ["search", "overview", "state", "call_service"]:
        cases[case] = {"p50": over_runs(pick("latency", case, "seconds", "p50")),
                       "p99": over_runs(pick("latency", case, "seconds", "p99")),
                       "samples": sum(v or 0 for v in pick("latency", case, "seconds", "n")),
                       "failures": sum(v or 0 for v in pick("latency", case, "failures")),
                       "last_error": next((e for e in pick("latency", case, "last_error") if e), None)}
    out["latency"] = cases
    errors = [r["error"] for r in runs if r.get("error")]
    if errors:
        out["error"] = errors[-1]
        out["failed_runs"] = len(errors)
    return out


def get_path(d, *path):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


async def one_run(spec, server: str, ents: dict, cfg, extras: bool, size: int) -> dict:
    """One repetition on a fresh HTTP server: start, first call, steady-state latencies,
    mixed calls, memory at each step. `extras` adds the once-per-home measures."""
    r: dict = {}
    srv = HttpServer(spec)
    try:
        r["http_start_seconds"] = srv.start()
        async with http_session(srv.url) as s:
            await s.list_tools()
            r["rss_after_start"] = srv.memory()
            r["first_call"] = await first_call(s, server)
            r["rss_after_first_call"] = srv.memory()
            r["latency"] = await latencies(s, server, ents, cfg.iters)
            if extras:
                r["catalogue"] = await catalogue(s)
                r["responses"] = await response_sizes(s, server, ents)
                if size == 1000:
                    print(f"[{size}] {server}: search quality", flush=True)
                    r["quality"] = await search_quality(s, server, "gen")
            r["mixed"] = await mixed_calls(s, server, ents, cfg.mixed)
            r["rss_after_mixed"] = srv.memory()
        if extras:
            r["throughput"] = []
            for c in cfg.clients:
                tp_runs = []
                for k in range(cfg.repeats):
                    print(f"[{size}] {server}: throughput x{c} run {k + 1}/{cfg.repeats}", flush=True)
                    tp_runs.append(await throughput(srv.url, server, c, cfg.duration, ents))
                r["throughput"].append({
                    "clients": c, "runs": tp_runs,
                    "calls_per_s": over_runs([t["calls_per_s"] for t in tp_runs]),
                    "p99": over_runs([get_path(t, "latency", "p99") for t in tp_runs]),
                    "errors": sum(t["errors"] for t in tp_runs),
                    "unfinished_at_deadline": sum(t["unfinished_at_deadline"] for t in tp_runs)})
    except Exception as e:  # noqa: BLE001 - a failing server is a result
        r["error"] = repr(e)[:500]
    finally:
        r["rss_peak"] = srv.memory()
        srv.stop()
    return r


async def bench_size(specs, sim: SimHome, size: int, cfg) -> dict:
    ents = sample_entities(sim)
    per_server = {}
    for name, spec in specs.items():
        print(f"[{size}] {name}: cold start x{cfg.runs}", flush=True)
        cold = await cold_start(spec, cfg.runs)
        runs = []
        for k in range(cfg.repeats):
            print(f"[{size}] {name}: run {k + 1}/{cfg.repeats}", flush=True)
            runs.append(await one_run(spec, name, ents, cfg, extras=(k == 0 and size == cfg.sizes[0]), size=size))
        r = combine_runs(runs)
        r["cold_start"] = cold
        for key in ["catalogue", "responses", "quality", "throughput"]:
            if key in runs[0]:
                r[key] = runs[0].pop(key)
        if size == cfg.sizes[0]:
            seeds = []
            for k in range(cfg.repeats):
                print(f"[{size}] {name}: seed scenario {k + 1}/{cfg.repeats}", flush=True)
                seeds.append(await seed_scenario(spec))
            r["seed_scenario"] = {"runs": seeds}
            for key in ["failed_before", "calls_total", "failed_in_flight_at_kill", "failed_during_restart",
                        "failed_after_restart", "ok_after_restart", "restart_seconds"]:
                r["seed_scenario"][key] = over_runs([sd.get(key) for sd in seeds])
            for key in ["session_id_issued", "session_survived"]:
                vals = [sd.get(key) for sd in seeds]
                r["seed_scenario"][key] = vals[0] if len(set(map(str, vals))) == 1 else vals
            errs = [sd.get("error") for sd in seeds if sd.get("error")]
            if errs:
                r["seed_scenario"]["error"] = errs[-1]
        per_server[name] = r
    return {"entities": int(ents["count"]), "servers": per_server}


def machine() -> dict:
    cpu = ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
            "python": platform.python_version()}


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hamcp", required=True)
    ap.add_argument("--peer-bin", default="", help="bin dir of the ha-mcp venv ('' = peer unavailable)")
    ap.add_argument("--peer-version", default="unavailable")
    ap.add_argument("--out", required=True)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--sizes", dest="sizes_only", default="", help="e.g. 1000,10000 (default: all)")
    ap.add_argument("--repeats", dest="repeats_override", type=int, default=0)
    cfg = ap.parse_args()
    if cfg.smoke:
        cfg.sizes, cfg.runs, cfg.repeats, cfg.iters, cfg.mixed, cfg.clients, cfg.duration = \
            [1000], 2, 2, 5, 30, [1, 4], 3.0
    else:
        cfg.sizes, cfg.runs, cfg.repeats, cfg.iters, cfg.mixed, cfg.clients, cfg.duration = \
            [1000, 10000, 100000], 5, 3, 50, 1000, [1, 16, 64], 60.0
    if cfg.sizes_only:
        cfg.sizes = [int(x) for x in cfg.sizes_only.split(",")]
    if cfg.repeats_override:
        cfg.repeats = cfg.repeats_override
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    hamcp_version = subprocess.run([cfg.hamcp, "--version"], capture_output=True, text=True).stdout.strip()
    results = {"machine": machine(), "smoke": cfg.smoke, "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
               "config": {"repeats": cfg.repeats, "cold_start_runs": cfg.runs, "iters": cfg.iters,
                          "mixed": cfg.mixed, "clients": cfg.clients, "duration_s": cfg.duration,
                          "case_budget_s": CASE_BUDGET_S, "mixed_budget_s": MIXED_BUDGET_S}, "hamcp_version": hamcp_version,
               "peer_version": cfg.peer_version, "sizes": []}
    # Load of the machine while the run goes on: the report says whether it was idle.
    load_samples: list[float] = []
    stop_sampling = threading.Event()

    def sample_load():
        while not stop_sampling.wait(10):
            load_samples.append(os.getloadavg()[0])

    sampler = threading.Thread(target=sample_load, daemon=True)
    sampler.start()
    results["load_average_at_start"] = os.getloadavg()
    try:
        for size in cfg.sizes:
            sim = SimHome(cfg.hamcp, size, 42)
            try:
                with tempfile.TemporaryDirectory() as data_dir:
                    specs = server_specs(cfg.hamcp, cfg.peer_bin, sim.url, sim.token, data_dir)
                    results["sizes"].append(await bench_size(specs, sim, size, cfg))
            finally:
                sim.stop()
            (out / "results.json").write_text(json.dumps(results, indent=1, default=str))
    finally:
        if ended := end_detached_peer_helpers(cfg.peer_bin):
            print(f"bench: ended {ended} helper process(es) ha-mcp left running")
    results["finished"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    results["load_average_at_end"] = os.getloadavg()
    stop_sampling.set()
    results["load_1min_during_run"] = over_runs(load_samples) if load_samples else {"n": 0}
    results["load_1min_during_run"].pop("runs", None)
    (out / "results.json").write_text(json.dumps(results, indent=1, default=str))
    print(f"bench: wrote {out / 'results.json'}")


if __name__ == "__main__":
    asyncio.run(main())
