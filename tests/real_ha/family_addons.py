"""The add-ons family (ha_get_app, ha_manage_app, ha_get_logs source=supervisor|system_service)
through hamcp's MCP stdio against this real Home Assistant. It runs as HA Core without a
Supervisor (no hassio integration, so no supervisor/api command and no /api/hassio), so every
Supervisor tool answers the one structured "no Supervisor here" error, at once, and the session
keeps answering."""

from __future__ import annotations

import json
import time

from check_kit import Ctx, McpStdio, expect


def _no_supervisor(err: dict, what: str):
    e = err.get("error", {})
    expect(e.get("code") == "supervisor_unavailable", f"{what}: {json.dumps(err)[:400]}")
    expect("HA Container/Core" in e.get("message", ""), f"{what} message: {e}")


def t_no_supervisor(c: Ctx):
    m = McpStdio(c)
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect({"ha_get_app", "ha_manage_app"} <= names, f"tools/list: {sorted(names)}")
        started = time.monotonic()
        _no_supervisor(m.tool("ha_get_app", {}, ok=False), "ha_get_app")
        _no_supervisor(m.tool("ha_get_app", {"slug": "core_mosquitto", "include_stats": True}, ok=False), "one add-on")
        _no_supervisor(m.tool("ha_get_addon", {"source": "available"}, ok=False), "ha_get_addon store")
        _no_supervisor(m.tool("ha_manage_app", {"action": "restart", "slug": "core_mosquitto"}, ok=False),
                       "ha_manage_app")
        _no_supervisor(m.tool("ha_get_logs", {"source": "supervisor", "slug": "core_mosquitto"}, ok=False),
                       "add-on log")
        _no_supervisor(m.tool("ha_get_logs", {"source": "supervisor"}, ok=False), "Supervisor log")
        _no_supervisor(m.tool("ha_get_logs", {"source": "system_service"}, ok=False), "host service identifiers")
        expect(time.monotonic() - started < 20, "the no-Supervisor answers took too long (retried?)")
        # The session is alive and HA still answers through it.
        logs = m.tool("ha_get_logs", {"source": "logger"})
        expect("entries" in logs, f"session after the Supervisor errors: {logs}")
    finally:
        m.close()


def t_supervisor_backups_and_jobs(c: Ctx):
    """Supervisor backups (via="supervisor", partial contents), add-on install with its job and
    an add-on config restore need a Supervisor: here each answers "not available" at once, while
    the default backup path (HA's backup integration) keeps working and says so."""
    m = McpStdio(c)
    try:
        started = time.monotonic()
        _no_supervisor(m.tool("ha_manage_backup", {"action": "list", "via": "supervisor"}, ok=False),
                       "Supervisor backup list")
        _no_supervisor(m.tool("ha_manage_backup", {"action": "create", "addons": ["core_mosquitto"]}, ok=False),
                       "partial backup")
        _no_supervisor(m.tool("ha_manage_backup", {"action": "restore", "via": "supervisor",
                                                   "backup_id": "abc123", "confirm": True}, ok=False),
                       "Supervisor restore")
        _no_supervisor(m.tool("ha_manage_app", {"action": "install", "slug": "core_ssh"}, ok=False),
                       "add-on install")
        _no_supervisor(m.tool("ha_manage_app", {"action": "proxy", "slug": "45df7312_zigbee2mqtt",
                                                "path": "/api/info", "ingress": True}, ok=False),
                       "add-on proxy through ingress")
        _no_supervisor(m.tool("ha_manage_backup", {"action": "delete", "via": "supervisor",
                                                   "older_than_days": 30, "keep_newest": 2}, ok=False),
                       "Supervisor delete by age")
        expect(time.monotonic() - started < 20, "the no-Supervisor answers took too long (retried?)")
        listed = m.tool("ha_manage_backup", {"action": "list"})
        expect(listed.get("via") == "integration" and "backups" in listed, f"integration list: {listed}")
    finally:
        m.close()


TESTS = [
    ("hamcp.addons.no_supervisor", t_no_supervisor),
    ("hamcp.addons.supervisor_backups_and_jobs", t_supervisor_backups_and_jobs),
]
