#!/usr/bin/env python3
"""resources/updated under load: one stdio MCP client subscribed to N entity resources
(ha://entity/<id>) while the simulated Home Assistant changes them RATE times a second
(POST /api/states, round robin, so each entity changes every N/RATE s) for SECONDS.
Latency = notification received by the client - change posted to the simulator (sim ->
WebSocket -> hamcp's mirror -> notification -> stdout). hamcp's RSS is sampled every 0.5 s.
Prints one JSON line per run and the median of the runs.

usage: notify_bench.py HAMCP_BIN [--entities 1000] [--rate 100] [--seconds 30] [--runs 3]
Loopback only; stdlib only."""
import argparse, http.client, json, os, statistics, subprocess, threading, time


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Client:
    """Line-delimited JSON-RPC over hamcp's stdin/stdout; a reader thread stamps notifications."""

    def __init__(self, argv, env):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.lock = threading.Lock()
        self.responses, self.sent_at, self.latencies = {}, {}, []
        self.updates = 0
        self.cond = threading.Condition(self.lock)
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self):
        for line in self.proc.stdout:
            now = time.perf_counter()
            msg = json.loads(line)
            with self.cond:
                if msg.get("method") == "notifications/resources/updated":
                    self.updates += 1
                    t = self.sent_at.pop(msg["params"]["uri"], None)
                    if t is not None:
                        self.latencies.append((now - t) * 1000)
                elif "id" in msg:
                    self.responses[msg["id"]] = msg
                    self.cond.notify_all()

    def send(self, obj):
        self.proc.stdin.write((json.dumps(obj) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method, params=None, timeout=30):
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})
        with self.cond:
            self.cond.wait_for(lambda: rid in self.responses, timeout)
            return self.responses.pop(rid)


def start_sim(binary, entities):
    sim = subprocess.Popen([binary, "sim", "--port", "0", "--token", "bench", "--entities", str(entities)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    url = json.loads(sim.stdout.readline())["url"]
    return sim, url


def one_run(binary, entities, rate, seconds):
    sim, url = start_sim(binary, entities * 2)
    env = dict(os.environ, HOMEASSISTANT_URL=url, HOMEASSISTANT_TOKEN="bench")
    client = Client([binary], env)
    try:
        client.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                      "clientInfo": {"name": "notify-bench", "version": "1"}})
        client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the mirror's first sync
            r = client.request("resources/read", {"uri": "ha://home"})
            if "result" in r and json.loads(r["result"]["contents"][0]["text"])["entity_count"] > 0:
                break
            time.sleep(0.2)
        host, port = url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port))
        conn.request("GET", "/api/states", headers={"Authorization": "Bearer bench"})
        ids = sorted(s["entity_id"] for s in json.loads(conn.getresponse().read()))[:entities]
        for i in ids:
            assert "result" in client.request("resources/subscribe", {"uri": f"ha://entity/{i}"})
        rss_start = rss_mb(client.proc.pid)
        rss_samples, stop = [], threading.Event()

        def sample():
            while not stop.wait(0.5):
                rss_samples.append(rss_mb(client.proc.pid))
        threading.Thread(target=sample, daemon=True).start()
        t0, n = time.perf_counter(), int(rate * seconds)
        for k in range(n):
            wait = t0 + k / rate - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            eid = ids[k % len(ids)]
            with client.lock:
                client.sent_at[f"ha://entity/{eid}"] = time.perf_counter()
            conn.request("POST", f"/api/states/{eid}", json.dumps({"state": str(k)}),
                         {"Authorization": "Bearer bench", "Content-Type": "application/json"})
            conn.getresponse().read()
        achieved = n / (time.perf_counter() - t0)
        time.sleep(2)  # the last notifications
        stop.set()
        with client.lock:
            lat = sorted(client.latencies)
            updates = client.updates
        return {"entities": len(ids), "changes": n, "achieved_rate": round(achieved, 1), "notifications": updates,
                "p50_ms": round(statistics.median(lat), 2), "p99_ms": round(lat[int(len(lat) * 0.99) - 1], 2),
                "max_ms": round(lat[-1], 2), "rss_start_mb": round(rss_start, 1),
                "rss_max_mb": round(max(rss_samples or [rss_start]), 1), "loadavg": os.getloadavg()[0]}
    finally:
        client.proc.terminate()
        client.proc.wait(10)
        sim.terminate()
        sim.wait(10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hamcp")
    ap.add_argument("--entities", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=100)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    runs = []
    for _ in range(a.runs):
        r = one_run(a.hamcp, a.entities, a.rate, a.seconds)
        print(json.dumps(r), flush=True)
        runs.append(r)
    med = {k: statistics.median(r[k] for r in runs) for k in ("p50_ms", "p99_ms", "rss_max_mb", "notifications")}
    print("median of", len(runs), "runs:", json.dumps(med))


if __name__ == "__main__":
    main()
