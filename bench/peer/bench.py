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
import time
import urllib.request
from pathlib import Path

from client import entity_ids_in_order, http_session, result_bytes, result_json, stdio_session, timed_call
from servers import HttpServer, SimHome, rss_kib, server_specs

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
QUERIES = ROOT / "tests/unit/search/queries.tsv"
# Bounds that keep a full run finite even when a server is very slow on a big home.
CASE_BUDGET_S = 90.0     # per latency case
MIN_SAMPLES = 3
MIXED_BUDGET_S = 180.0   # for the 1,000 mixed calls


# --- statistics ---------------------------------------------------------------------------------

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
    """4. closed loop: `clients` sessions each calling ha_search for `seconds`."""
    deadline = time.monotonic() + seconds
    ok_count, errors, lat = 0, 0, []

    async def one_client():
        nonlocal ok_count, errors
        try:
            async with http_session(url) as s:
                while time.monotonic() < deadline:
                    dt, ok, _ = await timed_call(s, "ha_search", args_for(server, "ha_search",
                                                                          {"query": "bedroom lamp", "limit": 5}))
                    lat.append(dt)
                    ok_count += ok
                    errors += not ok
        except Exception:  # noqa: BLE001 - a client that cannot connect counts as an error
            errors += 1

    t0 = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(one_client() for _ in range(clients))), seconds + 120)
    elapsed = time.monotonic() - t0
    return {"clients": clients, "seconds": elapsed, "ok": ok_count, "errors": errors,
            "calls_per_s": ok_count / elapsed if elapsed else 0, "latency": summary(lat)}


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

            before = await batch()
            in_flight = asyncio.create_task(batch())
            await asyncio.sleep(0.02)
            srv.kill()
            restart_s = srv.start()
            during = await in_flight
            after = await batch()
            result.update({
                "session_id_issued": bool(sid),
                "failed_before": len(before), "failed_during_restart": len(during),
                "failed_after_restart": len(after), "restart_seconds": round(restart_s, 3),
                # The same session id is used throughout and initialize is never re-sent: a call
                # that fails after the restart is a client the server has stranded.
                "session_survived": len(after) == 0,
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
                    "error": None if ok else str(getattr(res, "content", res))[:300]})
    return out


# --- orchestration --------------------------------------------------------------------------------

async def bench_size(specs, sim: SimHome, size: int, cfg) -> dict:
    ents = sample_entities(sim)
    per_server = {}
    for name, spec in specs.items():
        r: dict = {}
        print(f"[{size}] {name}: cold start", flush=True)
        r["cold_start"] = await cold_start(spec, cfg.runs)
        srv = HttpServer(spec)
        try:
            r["http_start_seconds"] = srv.start()
            async with http_session(srv.url) as s:
                await s.list_tools()
                r["rss_after_start"] = srv.memory()
                print(f"[{size}] {name}: latencies", flush=True)
                r["latency"] = await latencies(s, name, ents, cfg.iters)
                if size == cfg.sizes[0]:
                    cat = await catalogue(s)
                    r["catalogue"] = cat
                    r["responses"] = await response_sizes(s, name, ents)
                    home = "gen" if size == 1000 else None
                    if home:
                        print(f"[{size}] {name}: search quality", flush=True)
                        r["quality"] = await search_quality(s, name, home)
                print(f"[{size}] {name}: {cfg.mixed} mixed calls", flush=True)
                r["mixed"] = await mixed_calls(s, name, ents, cfg.mixed)
                r["rss_after_mixed"] = srv.memory()
            if size == cfg.sizes[0]:
                r["throughput"] = []
                for c in cfg.clients:
                    print(f"[{size}] {name}: throughput x{c}", flush=True)
                    r["throughput"].append(await throughput(srv.url, name, c, cfg.duration, ents))
        except Exception as e:  # noqa: BLE001 - a failing server is a result
            r["error"] = repr(e)[:500]
        finally:
            r["rss_peak"] = srv.memory()
            srv.stop()
        if size == cfg.sizes[0]:
            print(f"[{size}] {name}: seed scenario", flush=True)
            r["seed_scenario"] = await seed_scenario(spec)
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
    cfg = ap.parse_args()
    if cfg.smoke:
        cfg.sizes, cfg.runs, cfg.iters, cfg.mixed, cfg.clients, cfg.duration = [1000], 2, 5, 30, [1, 4], 3.0
    else:
        cfg.sizes, cfg.runs, cfg.iters, cfg.mixed, cfg.clients, cfg.duration = \
            [1000, 10000, 100000], 5, 50, 1000, [1, 16, 64], 60.0
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    hamcp_version = subprocess.run([cfg.hamcp, "--version"], capture_output=True, text=True).stdout.strip()
    results = {"machine": machine(), "smoke": cfg.smoke, "hamcp_version": hamcp_version,
               "peer_version": cfg.peer_version, "sizes": []}
    for size in cfg.sizes:
        sim = SimHome(cfg.hamcp, size, 42)
        try:
            with tempfile.TemporaryDirectory() as data_dir:
                specs = server_specs(cfg.hamcp, cfg.peer_bin, sim.url, sim.token, data_dir)
                results["sizes"].append(await bench_size(specs, sim, size, cfg))
        finally:
            sim.stop()
        (out / "results.json").write_text(json.dumps(results, indent=1, default=str))
    print(f"bench: wrote {out / 'results.json'}")


if __name__ == "__main__":
    asyncio.run(main())
