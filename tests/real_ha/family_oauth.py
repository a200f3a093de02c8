"""hamcp's --auth oauth against this real Home Assistant 2026.2.3: a non-admin test user is created
(config/auth/create + config/auth_provider/homeassistant/create), then an MCP client registers
(RFC 7591), authorizes with PKCE, logs in through HA's own login flow as that user, gets hamcp tokens,
makes MCP calls, refreshes (rotation; a replay is refused) and revokes. The HA grant hamcp keeps for
that login (data dir, mode 0600) is the user's own: HA itself refuses it an admin-only command. MCP tool
calls made with that login act as the user: HA refuses the non-admin an admin-only read (ha_get_logs
source=system: system_log/list) while a service call and a state read work; an admin test user gets
the same admin-only read; after revocation the calls are refused."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import time

from check_kit import Ctx, Skip, expect, hamcp_env
from halib import HaWs

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e", "py"))
from oauth_driver import OAuthLogin, mcp_call, mcp_initialize, signed_in, tool_call  # noqa: E402

USERNAME, PASSWORD = "hamcp-oauth-guest", "guest-password-1234"
ADMIN_USERNAME, ADMIN_PASSWORD = "hamcp-oauth-admin", "admin-password-1234"


def ensure_user(c: Ctx, username: str = USERNAME, password: str = PASSWORD, name: str = "OAuth Guest",
                group: str = "system-users") -> None:
    ws = c.ws()
    try:
        users = ws.call({"type": "config/auth/list"})
        if any(u.get("username") == username for u in users):
            return
        user = ws.call({"type": "config/auth/create", "name": name, "group_ids": [group],
                        "local_only": False})["user"]
        ws.call({"type": "config/auth_provider/homeassistant/create", "user_id": user["id"],
                 "username": username, "password": password})
    finally:
        ws.ws.close()


def start_hamcp(c: Ctx, data_dir: str):
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([c.hamcp, "--http", "--auth", "oauth", "--host", "127.0.0.1", "--port", "0",
                             "--data-dir", data_dir], env=hamcp_env(c), stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and proc.poll() is None:
        log.seek(0)
        m = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", log.read().decode(errors="replace"))
        if m:
            return proc, m.group(1)
        time.sleep(0.1)
    proc.kill()
    log.seek(0)
    raise AssertionError(f"hamcp --auth oauth did not start: {log.read().decode(errors='replace')[-800:]}")


def t_oauth_login_as_a_non_admin_user(c: Ctx):
    if not c.hamcp:
        raise Skip("no hamcp binary (HAMCP_BUILD_DIR)")
    ensure_user(c)
    with tempfile.TemporaryDirectory() as data_dir:
        os.chmod(data_dir, 0o700)
        proc, url = start_hamcp(c, data_dir)
        try:
            flow = OAuthLogin(url)
            flow.discover()
            flow.register()
            got = flow.authorize(USERNAME, PASSWORD)
            status, tokens = flow.token(got["code"])
            expect(status == 200, f"token: {status} {tokens}")
            status, session = mcp_initialize(url, tokens["access_token"])
            expect(status == 200 and session, f"initialize with the OAuth token: {status}")
            status, listed = mcp_call(url, tokens["access_token"], session, "tools/list", {})
            expect(status == 200 and listed["result"]["tools"], f"tools/list: {status}")

            grants_file = os.path.join(data_dir, "ha-grants.json")
            expect(stat.S_IMODE(os.stat(grants_file).st_mode) == 0o600, "ha-grants.json must be 0600")
            ha_grant = next(iter(json.load(open(grants_file)).values()))
            ws = HaWs(c.url, ha_grant["access_token"])
            try:
                me = ws.call({"type": "auth/current_user"})
                expect(me["name"] == "OAuth Guest" and not me["is_admin"], f"the HA grant's user: {me}")
                try:
                    ws.call({"type": "config/auth/list"})
                    raise AssertionError("HA let a non-admin user list users")
                except RuntimeError as e:
                    expect("unauthorized" in str(e), f"admin-only refusal: {e}")
            finally:
                ws.ws.close()

            status, rotated = flow.refresh(tokens["refresh_token"])
            expect(status == 200 and rotated["refresh_token"] != tokens["refresh_token"], f"refresh: {rotated}")
            status, replay = flow.refresh(tokens["refresh_token"])
            expect(status == 400 and replay["error"] == "invalid_grant", f"replayed refresh: {replay}")

            got = flow.authorize(USERNAME, PASSWORD)
            status, fresh = flow.token(got["code"])
            expect(status == 200, f"second login: {fresh}")
            status, _ = flow.revoke(fresh["refresh_token"])
            expect(status == 200, "revoke")
            status, _ = mcp_initialize(url, fresh["access_token"])
            expect(status == 401, f"a revoked grant still works: {status}")
        finally:
            proc.terminate()
            proc.wait(10)


def t_oauth_tool_calls_act_as_the_user(c: Ctx):
    if not c.hamcp:
        raise Skip("no hamcp binary (HAMCP_BUILD_DIR)")
    ensure_user(c)
    ensure_user(c, ADMIN_USERNAME, ADMIN_PASSWORD, "OAuth Admin", "system-admin")
    admin_only = {"source": "system"}  # system_log/list: @require_admin in HA
    toggle = {"domain": "input_boolean", "service": "toggle", "entity_id": "input_boolean.hamcp_test_flag"}
    with tempfile.TemporaryDirectory() as data_dir:
        os.chmod(data_dir, 0o700)
        proc, url = start_hamcp(c, data_dir)
        try:
            flow = OAuthLogin(url)
            flow.discover()
            flow.register()
            guest, guest_session = signed_in(flow, url, USERNAME, PASSWORD)
            status, refused = tool_call(url, guest, guest_session, "ha_get_logs", admin_only)
            expect(status == 200 and refused["isError"] and refused["error"]["code"] == "ha_not_permitted",
                   f"a non-admin's admin-only read must be refused by HA: {refused}")
            expect(refused["error"].get("ha_code") == "unauthorized", f"HA's own code: {refused}")
            status, toggled = tool_call(url, guest, guest_session, "ha_call_service", toggle)
            expect(status == 200 and not toggled["isError"], f"a non-admin may call services: {toggled}")
            status, read = tool_call(url, guest, guest_session, "ha_get_state",
                                     {"entity_id": "input_boolean.hamcp_test_flag"})
            expect(status == 200 and not read["isError"], f"a non-admin may read states: {read}")

            admin, admin_session = signed_in(flow, url, ADMIN_USERNAME, ADMIN_PASSWORD)
            status, logs = tool_call(url, admin, admin_session, "ha_get_logs", admin_only)
            expect(status == 200 and not logs["isError"], f"an admin user gets the admin-only read: {logs}")
            status, _ = tool_call(url, guest, admin_session, "ha_get_logs", admin_only)
            expect(status == 403, f"another user's session must refuse the guest: {status}")

            got = flow.authorize(USERNAME, PASSWORD)
            status, fresh = flow.token(got["code"])
            expect(status == 200, f"third login: {fresh}")
            _, fresh_session = mcp_initialize(url, fresh["access_token"])
            status, ok = tool_call(url, fresh["access_token"], fresh_session, "ha_call_service", toggle)
            expect(status == 200 and not ok["isError"], f"before revocation: {ok}")
            status, _ = flow.revoke(fresh["refresh_token"])
            expect(status == 200, "revoke")
            status, _ = tool_call(url, fresh["access_token"], fresh_session, "ha_call_service", toggle)
            expect(status == 401, f"after revocation the MCP token is refused: {status}")
            status, still = tool_call(url, guest, guest_session, "ha_call_service", toggle)
            expect(status == 200 and not still["isError"], f"the other login keeps working: {still}")
        finally:
            proc.terminate()
            proc.wait(10)


TESTS = [("hamcp.oauth_login_as_a_non_admin_user", t_oauth_login_as_a_non_admin_user),
         ("hamcp.oauth_tool_calls_act_as_the_user", t_oauth_tool_calls_act_as_the_user)]
