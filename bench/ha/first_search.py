#!/usr/bin/env python3
"""Time from `hamcp --http` start until ha_search answers from the whole home.

    bench/ha/first_search.py RUNS ENTITIES NAME=BIN [NAME=BIN ...]

Per run and build (interleaved): a fresh `hamcp sim --entities N --seed 42` (the first build's sim,
loopback), then hamcp started against it; from the moment it is spawned, ha_search
{"query": "kitchen light"} is called in a loop (one MCP session; each call waits for its answer, then
the next one goes out; bounded: 600 calls and 120 s). A call counts when its answer's total equals
the total a call gets 1 s after the log line "ha mirror: synced" (the whole home indexed). Prints
the seconds from spawn to that answer's arrival and to the log line, then medians.
MM_PORT (default 18590): the sim's port, hamcp's is the next.
"""
import json, os, subprocess, sys, tempfile, time, urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from mcp_session import Session  # noqa: E402

ARGS = {"query": "kitchen light", "limit": 5}


def total_of(body):
    try:
        text = body.decode()
        if text.startswith("event:") or text.startswith("data:"):
            text = next(line[5:] for line in text.splitlines() if line.startswith("data:"))
        res = json.loads(text)["result"]
        if res.get("isError"):
            return None
        sc = res.get("structuredContent") or {}
        return sc.get("total_count", sc.get("total"))
    except (ValueError, KeyError, StopIteration):
        return None


def wait_http(port, limit=60):
    end = time.time() + limit
    while time.time() < end:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/", timeout=1)
            return True
        except OSError as e:
            if getattr(e, "code", None):  # an HTTP error answer: it listens
                return True
            time.sleep(0.2)
    return False


def one(sim_bin, bin_, n, sp):
    hp = sp + 1
    sim = subprocess.Popen([sim_bin, "sim", "--host", "127.0.0.1", "--port", str(sp), "--token", "t",
                            "--entities", str(n), "--seed", "42"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = tempfile.NamedTemporaryFile(delete=False)
    try:
        wait_http(sp)
        env = dict(os.environ, HOMEASSISTANT_URL=f"http://127.0.0.1:{sp}", HOMEASSISTANT_TOKEN="t")
        t0 = time.perf_counter()
        srv = subprocess.Popen([bin_, "--http", "--port", str(hp)], env=env, stdout=log, stderr=log)
        answers, synced_at, session = [], None, None
        for _ in range(600):
            if time.perf_counter() - t0 > 120:
                break
            try:
                if session is None:
                    session = Session(hp, "first-search")
                _, body = session.call("ha_search", ARGS)
                answers.append((time.perf_counter() - t0, total_of(body)))
            except OSError:
                session = None
                time.sleep(0.01)
            if synced_at is None and b"mirror: synced" in open(log.name, "rb").read():
                synced_at = time.perf_counter() - t0
            if synced_at is not None and answers and answers[-1][0] > synced_at + 1:
                break
        final = answers[-1][1] if answers else None
        first = next((t for t, total in answers if final is not None and total == final), None)
        srv.terminate()
        srv.wait()
        return first, synced_at, final
    finally:
        sim.terminate()
        sim.wait()
        os.unlink(log.name)


def main():
    runs, n = int(sys.argv[1]), int(sys.argv[2])
    builds = [a.split("=", 1) for a in sys.argv[3:]]
    sp = int(os.environ.get("MM_PORT", "18590"))
    out = {name: [] for name, _ in builds}
    for r in range(runs):
        for name, bin_ in builds:
            first, synced, total = one(builds[0][1], bin_, n, sp)
            out[name].append((first, synced))
            print(f"{name} {n} first_full_search_s={first and round(first, 3)} synced_log_s={synced and round(synced, 3)}"
                  f" total={total} load={os.getloadavg()[0]:.2f}", flush=True)
    med = lambda v: sorted(v)[len(v) // 2] if v else None  # noqa: E731
    for name, rows in out.items():
        f = [a for a, _ in rows if a is not None]
        s = [b for _, b in rows if b is not None]
        print(f"median {name} {n}: first full search {med(f) and round(med(f), 3)} s, synced log line "
              f"{med(s) and round(med(s), 3)} s ({len(f)}/{len(rows)} runs answered)")


if __name__ == "__main__":
    main()
