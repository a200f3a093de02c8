"""`hamcp setup <client>`: what it prints for each client is valid in that client's format (JSON,
TOML, a shell command), names a hamcp binary that exists, and, started exactly as the client would
start it, is a working MCP server (the official Python SDK lists the tools and calls one). For
HTTP, the printed url and headers reach a running `hamcp --http --demo` with a bearer token."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tomllib

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
import httpx

from conftest import HAMCP_BIN, hamcp_http_demo  # noqa: E402 - pytest puts this folder on sys.path
pytestmark = [pytest.mark.anyio, pytest.mark.skipif(not HAMCP_BIN, reason="HAMCP_BIN not set")]
CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode", "codex", "generic"]


def setup(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOMEASSISTANT_", "MCP_", "HAMCP_"))}
    out = subprocess.run([HAMCP_BIN, "setup", *args], capture_output=True, text=True, env=env, timeout=10)
    assert out.returncode == 0, out.stderr
    return out.stdout


def stdio_launch(client: str, text: str) -> tuple[str, list[str], dict]:
    """(command, args, env) as the client would start it, parsed from the client's own format."""
    if client == "claude-code":
        words = shlex.split(text)
        assert words[:3] == ["claude", "mcp", "add"] and "--" in words
        env = dict(w.split("=", 1) for i, w in enumerate(words) if i > 0 and words[i - 1] == "--env")
        rest = words[words.index("--") + 1:]
        return rest[0], rest[1:], env
    if client == "codex":
        server = tomllib.loads(text)["mcp_servers"]["home-assistant"]
    else:
        server = json.loads(text)["servers" if client == "vscode" else "mcpServers"]["home-assistant"]
        if client == "vscode":
            assert server["type"] == "stdio"
    return server["command"], server.get("args", []), server.get("env", {})


async def list_and_call(read, write):
    async with ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        assert any(t.name == "ha_get_state" for t in tools)
        result = await session.call_tool("ha_get_state", {"entity_id": "sun.sun"})
        assert not result.isError, result.content


@pytest.mark.parametrize("client", CLIENTS)
async def test_printed_stdio_config_starts_a_working_hamcp(client):
    command, args, env = stdio_launch(client, setup(client, "--demo"))
    assert os.path.isabs(command) and os.access(command, os.X_OK), command
    assert os.path.samefile(command, HAMCP_BIN)
    params = StdioServerParameters(command=command, args=args, env={**env, "PATH": os.environ.get("PATH", "")})
    async with stdio_client(params) as (read, write):
        await list_and_call(read, write)


@pytest.mark.parametrize("client", CLIENTS)
def test_home_assistant_variables_reach_the_config(client):
    text = setup(client, "--ha-url", "http://ha.invalid:8123", "--ha-token", "t0k'en")
    command, args, env = stdio_launch(client, text)
    assert env == {"HOMEASSISTANT_URL": "http://ha.invalid:8123", "HOMEASSISTANT_TOKEN": "t0k'en"}
    assert args == []


@pytest.fixture(scope="module")
def http_server():
    with hamcp_http_demo("--auth-token", "s3cret-token") as url:
        yield url


@pytest.mark.parametrize("client", ["cursor", "vscode", "generic"])
async def test_printed_http_config_reaches_hamcp_with_its_token(client, http_server):
    text = setup(client, "--http", "--url", http_server, "--auth-token", "s3cret-token")
    server = json.loads(text)["servers" if client == "vscode" else "mcpServers"]["home-assistant"]
    assert server["url"] == http_server
    headers = server["headers"]
    async with httpx.AsyncClient(headers=headers) as http:
        async with streamable_http_client(server["url"], http_client=http) as (read, write, _):
            await list_and_call(read, write)
    # Without the header the same server refuses: the token is what made it work.
    assert httpx.post(http_server, json={}).status_code == 401


def test_http_for_claude_code_and_codex(http_server):
    words = shlex.split(setup("claude-code", "--http", "--url", http_server, "--auth-token", "s3cret-token"))
    assert words[words.index("--transport") + 1] == "http" and http_server in words
    assert words[words.index("--header") + 1] == "Authorization: Bearer s3cret-token"
    codex = tomllib.loads(setup("codex", "--http", "--url", http_server, "--auth-token", "s3cret-token"))
    server = codex["mcp_servers"]["home-assistant"]
    assert server == {"url": http_server, "bearer_token_env_var": "HAMCP_AUTH_TOKEN"}


def test_write_merges_into_the_clients_file_and_keeps_the_rest(tmp_path):
    file = tmp_path / "mcp.json"
    file.write_text('{"mcpServers": {"other": {"command": "x"}}}')
    setup("cursor", "--demo", "--write", "--file", str(file))
    config = json.loads(file.read_text())
    assert config["mcpServers"]["other"] == {"command": "x"}
    assert os.path.samefile(config["mcpServers"]["home-assistant"]["command"], HAMCP_BIN)
    assert json.loads((tmp_path / "mcp.json.bak").read_text()) == {"mcpServers": {"other": {"command": "x"}}}
    assert oct(file.stat().st_mode & 0o777) == "0o600"


def test_write_refuses_placeholders_and_unknown_clients(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOMEASSISTANT_", "MCP_", "HAMCP_"))}
    out = subprocess.run([HAMCP_BIN, "setup", "cursor", "--write", "--file", str(tmp_path / "m.json")],
                         capture_output=True, text=True, env=env, timeout=10)
    assert out.returncode == 2 and "--ha-token" in out.stderr
    assert not (tmp_path / "m.json").exists()
    out = subprocess.run([HAMCP_BIN, "setup", "zed"], capture_output=True, text=True, env=env, timeout=10)
    assert out.returncode == 2 and "claude-desktop" in out.stderr
