#!/usr/bin/env python3
"""Wait for a freshly started Home Assistant, onboard it without a browser and
mint a long-lived access token; then wait until the core is RUNNING.

  onboard.py --url http://127.0.0.1:PORT --env-file RUN/ha.env [--timeout S]

Writes HOMEASSISTANT_URL and HOMEASSISTANT_TOKEN (plus HA_VERSION) to the env
file. When the env file already holds a token that HA accepts (a restart of the
same run dir) it only waits for RUNNING. The token is never printed."""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from halib import HaWs, HttpError, http, read_env_file  # noqa: E402

USER = {"name": "hamcp test", "username": "hamcp", "password": "hamcp-real-ha-test-only", "language": "en"}


def log(msg: str) -> None:
    print(f"onboard: {msg}", file=sys.stderr, flush=True)


def wait_for(what: str, probe, deadline: float, interval: float = 0.5):
    last = None
    while time.monotonic() < deadline:
        try:
            result = probe()
            if result:
                return result
        except (OSError, HttpError, ValueError) as e:
            last = e
        time.sleep(interval)
    raise TimeoutError(f"timed out waiting for {what} (last error: {last})")


def token_works(url: str, token: str) -> bool:
    try:
        status, _ = http("GET", url + "/api/", token=token, timeout=5)
        return status == 200
    except (OSError, HttpError):
        return False


def onboard(url: str, deadline: float) -> str:
    client_id = url + "/"

    def onboarding_status():
        status, body = http("GET", url + "/api/onboarding", timeout=5)
        return body if status == 200 else None

    steps = wait_for("/api/onboarding", onboarding_status, deadline)
    done = {s["step"] for s in steps if s.get("done")}
    if "user" in done:
        raise RuntimeError("HA is already onboarded but no working token is in the env file: "
                           "start from a fresh run dir")
    _, body = http("POST", url + "/api/onboarding/users",
                   json_body={"client_id": client_id, **USER})
    auth_code = body["auth_code"]
    _, tok = http("POST", url + "/auth/token",
                  form={"grant_type": "authorization_code", "code": auth_code, "client_id": client_id})
    access = tok["access_token"]
    # Finish the remaining steps so HA counts as fully set up (no onboarding redirect).
    for step, payload in (("core_config", {}), ("analytics", {}),
                          ("integration", {"client_id": client_id, "redirect_uri": client_id})):
        if step in done:
            continue
        try:
            http("POST", f"{url}/api/onboarding/{step}", token=access, json_body=payload)
        except HttpError as e:
            # 403 = step already done; anything else is worth a look but not fatal.
            log(f"onboarding step {step}: HTTP {e.status}")
    ws = HaWs(url, access)
    try:
        llat = ws.call({"type": "auth/long_lived_access_token", "client_name": "hamcp-real-ha",
                        "lifespan": 3650})
    finally:
        ws.close()
    return llat


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--env-file", required=True)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--pid", type=int, help="HA's process: stop waiting as soon as it dies")
    a = ap.parse_args()
    url = a.url.rstrip("/")
    deadline = time.monotonic() + a.timeout
    t0 = time.monotonic()

    def api_answers():
        if a.pid and not _alive(a.pid):
            raise SystemExit(f"onboard: FAILED: Home Assistant (pid {a.pid}) exited during start-up")
        return _api_answers(url)

    wait_for("/api/ to answer", api_answers, deadline)
    token = None
    if os.path.exists(a.env_file):
        token = read_env_file(a.env_file).get("HOMEASSISTANT_TOKEN")
        if token and not token_works(url, token):
            token = None
    if not token:
        token = onboard(url, deadline)
        log(f"owner user and long-lived token created after {time.monotonic() - t0:.1f}s")

    def running():
        _, st = http("GET", url + "/api/core/state", token=token, timeout=5)
        return st if st.get("state") == "RUNNING" else None

    wait_for("core state RUNNING", running, deadline)
    _, cfg = http("GET", url + "/api/config", token=token)
    tmp = a.env_file + ".tmp"
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        f.write(f"HOMEASSISTANT_URL={url}\nHOMEASSISTANT_TOKEN={token}\nHA_VERSION={cfg['version']}\n")
    os.replace(tmp, a.env_file)
    log(f"HA {cfg['version']} RUNNING after {time.monotonic() - t0:.1f}s")
    return 0


def _alive(pid: int) -> bool:
    # A dead child of start.sh stays a zombie until the shell reaps it: count that as dead.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def _api_answers(url: str) -> bool:
    # Unauthenticated /api/ answers 401 once the HTTP server is up.
    try:
        http("GET", url + "/api/", timeout=5)
        return True
    except HttpError as e:
        return e.status in (401, 200)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # noqa: BLE001 - one clear line for the lane log
        log(f"FAILED: {e}")
        sys.exit(1)
