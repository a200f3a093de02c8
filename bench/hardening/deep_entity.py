#!/usr/bin/env python3
"""Issue 8 W7: an entity whose attributes nest 29 deep, and hamcp's log.

Starts `<hamcp> sim` on a loopback port, POSTs sensor.deep with attributes
nested --depth levels, runs `<hamcp>` (stdio, stdin held open) against it for
--seconds and counts its stderr lines and how many were warnings/errors.

  bench/hardening/deep_entity.py build/hamcp [--depth 29] [--seconds 34]
"""
import argparse, json, socket, subprocess, tempfile, time, urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--depth", type=int, default=29)
    ap.add_argument("--seconds", type=float, default=34)
    args = ap.parse_args()
    port, token = free_port(), "bench-token"
    sim = subprocess.Popen([args.binary, "sim", "--port", str(port), "--token", token],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(urllib.request.Request(url + "/api/", headers={"Authorization": "Bearer " + token}), timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        nested = "leaf"
        for _ in range(args.depth):
            nested = {"level": nested}
        body = json.dumps({"state": "on", "attributes": {"deep": nested}}).encode()
        req = urllib.request.Request(url + "/api/states/sensor.deep", data=body, method="POST",
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=5)
        env = {"HOMEASSISTANT_URL": url, "HOMEASSISTANT_TOKEN": token, "PATH": "/usr/bin:/bin"}
        with tempfile.TemporaryFile() as log:  # a file, not a pipe: a flood must not block hamcp
            hamcp = subprocess.Popen([args.binary], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=log, env=env)
            time.sleep(args.seconds)
            try:
                hamcp.communicate(timeout=15)  # closes stdin: hamcp exits
            except subprocess.TimeoutExpired:
                hamcp.kill()
                hamcp.wait()
            log.seek(0)
            err = log.read()
        lines = err.decode(errors="replace").splitlines()
        problems = [l for l in lines if "[warning]" in l or "[error]" in l]
        synced = sum("synced" in l for l in lines)
        print(f"{args.binary}: depth {args.depth}, {args.seconds:.0f} s: {len(lines)} stderr lines, "
              f"{len(problems)} warning/error, {synced} 'synced' lines")
        for l in problems[:3]:
            print("   ", l[:200])
    finally:
        sim.terminate()
        sim.wait(timeout=10)


if __name__ == "__main__":
    main()
