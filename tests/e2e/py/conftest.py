"""Shared pieces of the Python SDK end-to-end tests."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
import time

import pytest

HAMCP_BIN = os.environ.get("HAMCP_BIN", "")


def stop(proc: subprocess.Popen) -> None:
    """Ends a hamcp started by a test: SIGTERM, then SIGKILL if it has not exited within 5 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def read_until(proc: subprocess.Popen, log, pattern: str, what: str) -> str:
    """The first group of `pattern` in a started process's log (a binary temp file), waited for up to 15 s."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and proc.poll() is None:
        log.seek(0)
        m = re.search(pattern, log.read().decode(errors="replace"))
        if m:
            return m.group(1)
        time.sleep(0.05)
    log.seek(0)
    pytest.fail(f"{what} did not report its URL (exit {proc.poll()}):\n{log.read().decode(errors='replace')[-2000:]}")


@contextlib.contextmanager
def hamcp_http_demo(*extra_args: str):
    """`hamcp --http --demo` on a free loopback port with its own data dir; yields its /mcp URL
    (read from its log, where hamcp prints it once it listens)."""
    data = tempfile.TemporaryDirectory()
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([HAMCP_BIN, "--http", "--demo", "--host", "127.0.0.1", "--port", "0",
                             "--data-dir", data.name, *extra_args],
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        url = read_until(proc, log, r"(http://127\.0\.0\.1:\d+/mcp)", "hamcp --http --demo")
        yield url
    finally:
        stop(proc)
        data.cleanup()


# Fixtures the SDK tests share: asyncio under anyio, one `hamcp --http --demo` per module, and each
# test run over stdio and over HTTP (a module may override `url`, e.g. for the fixture server).
@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def demo_http_url():
    with hamcp_http_demo() as url:
        yield url


@pytest.fixture(params=["stdio", "http"])
def kind(request):
    return request.param


@pytest.fixture
def url(kind, request):
    return request.getfixturevalue("demo_http_url") if kind == "http" else None
