"""How to start each MCP server under test (hamcp and the peer ha-mcp) against one simulated home,
and how to measure a server process. Both are driven by the same official MCP client (PyPI `mcp`)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(0.2)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.05)
    return False


def rss_kib(pid: int) -> dict[str, int]:
    """Current (VmRSS) and peak (VmHWM) resident memory of a process, in KiB."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value = line.split(":", 1)
                    out[key] = int(value.split()[0])
    except FileNotFoundError:
        pass
    return {"rss_kib": out.get("VmRSS", 0), "peak_kib": out.get("VmHWM", 0)}


@dataclass
class ServerSpec:
    """One server under test: its stdio command, its HTTP command, and its environment."""

    name: str
    stdio_cmd: list[str]
    http_cmd: list[str]
    env: dict[str, str] = field(default_factory=dict)
    http_path: str = "/mcp"

    def http_env(self, port: int) -> dict[str, str]:
        env = dict(os.environ, **self.env)
        env.update({"MCP_HOST": "127.0.0.1", "MCP_PORT": str(port), "MCP_PATH": self.http_path,
                    "MCP_SECRET_PATH": self.http_path})
        return env

    def stdio_env(self) -> dict[str, str]:
        return dict(os.environ, **self.env)


def server_specs(hamcp_bin: str, peer_bin_dir: str, ha_url: str, ha_token: str,
                 data_dir: str) -> dict[str, ServerSpec]:
    common = {"HOMEASSISTANT_URL": ha_url, "HOMEASSISTANT_TOKEN": ha_token, "LOG_LEVEL": "WARNING"}
    specs = {
        "hamcp": ServerSpec(
            "hamcp", [hamcp_bin], [hamcp_bin, "--http"],
            dict(common, HAMCP_DATA_DIR=data_dir, LOG_LEVEL="warn")),
    }
    if peer_bin_dir:
        specs["ha-mcp"] = ServerSpec(
            "ha-mcp", [os.path.join(peer_bin_dir, "ha-mcp")], [os.path.join(peer_bin_dir, "ha-mcp-web")],
            dict(common))
    return specs


class HttpServer:
    """A server process serving Streamable HTTP on a fixed loopback port (kept across restarts)."""

    def __init__(self, spec: ServerSpec, port: int | None = None):
        self.spec = spec
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix=f"{spec.name}-", suffix=".log", delete=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.spec.http_path}"

    def start(self, timeout: float = 120.0) -> float:
        """Starts the process; returns seconds until its port accepts connections."""
        t0 = time.monotonic()
        self.proc = subprocess.Popen(self.spec.http_cmd, env=self.spec.http_env(self.port),
                                     stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if not wait_port(self.port, timeout):
            self.stop()
            raise RuntimeError(f"{self.spec.name} did not listen on {self.port} within {timeout} s; "
                               f"log: {self.log.name}")
        return time.monotonic() - t0

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def memory(self) -> dict[str, int]:
        return rss_kib(self.proc.pid) if self.proc else {}


class SimHome:
    """`hamcp sim` on a loopback port: the one simulated home both servers talk to."""

    def __init__(self, hamcp_bin: str, entities: int, seed: int, token: str = "bench-token"):
        self.token = token
        self.proc = subprocess.Popen(
            [hamcp_bin, "sim", "--port", "0", "--token", token, "--entities", str(entities),
             "--seed", str(seed)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r'"url"\s*:\s*"([^"]+)"', line or "")
        if not m:
            self.proc.kill()
            raise RuntimeError(f"hamcp sim did not print its URL (got {line!r})")
        self.url = m.group(1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def end_detached_peer_helpers(peer_bin: str) -> int:
    """ha-mcp over stdio starts a settings sidecar (`python -m ha_mcp.stdio_settings_sidecar`) in a
    session of its own, so it outlives the server that started it and every stop above. The bench
    ends those its peer venv's interpreter runs (and nothing else); returns how many."""
    if not peer_bin:
        return 0
    prefix = os.path.abspath(peer_bin).encode() + b"/"
    ended = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if len(argv) >= 3 and argv[0].startswith(prefix) and argv[1] == b"-m" and argv[2].startswith(b"ha_mcp."):
            try:
                os.kill(int(entry), signal.SIGTERM)
                ended += 1
            except ProcessLookupError:
                pass
    return ended
