#!/usr/bin/env python3
"""Time of one tools/call whose unknown tool name is 4 MB, over stdio.

Starts `<hamcp> --demo` (stdio, embedded simulated home), initializes, then
times the round trip of the oversized call and of a tools/list right after it
(what every other client waits for while the I/O thread is busy). Reports the
median of --runs fresh processes. Loopback only; every wait is bounded.

  bench/hardening/huge_tool_name.py build/hamcp [--runs 3] [--mb 4]
"""
import argparse, json, statistics, subprocess, time


def rpc(proc, message, want_id, limit_s=60):
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("hamcp closed stdout")
        reply = json.loads(line)
        if reply.get("id") == want_id:
            return reply, len(line)
    raise RuntimeError("no answer in time")


def one_run(binary, mb):
    proc = subprocess.Popen([binary, "--demo"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    try:
        rpc(proc, {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "bench", "version": "1"}}}, 0)
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        name = "x" * (mb * 1024 * 1024)
        start = time.monotonic()
        reply, size = rpc(proc, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": {}}}, 1)
        call_ms = (time.monotonic() - start) * 1000
        start = time.monotonic()
        rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, 2)
        list_ms = (time.monotonic() - start) * 1000
        assert "error" in reply, reply
        return call_ms, list_ms, size
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--mb", type=int, default=4)
    args = ap.parse_args()
    runs = [one_run(args.binary, args.mb) for _ in range(args.runs)]
    calls = [r[0] for r in runs]
    lists = [r[1] for r in runs]
    print(f"{args.binary}: {args.mb} MB unknown tool name: call median {statistics.median(calls):.1f} ms "
          f"(min {min(calls):.1f}, max {max(calls):.1f}); next tools/list {statistics.median(lists):.1f} ms; "
          f"error response {runs[0][2]} bytes")


if __name__ == "__main__":
    main()
