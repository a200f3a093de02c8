"""Read-only mode (issue 14) against real Home Assistant: hamcp started with READ_ONLY_MODE=true
lists only read tools (and the mixed ones whose reads stay), refuses ha_call_service light.turn_on
(and other writes) with the read_only error while the light stays as it was, and still reads."""

from __future__ import annotations

import json
import time

from check_kit import Ctx, McpStdio, expect

# Write tools with read actions: listed in read-only mode, their writes refused by the gate.
MIXED = {"ha_manage_app", "ha_manage_radio", "ha_manage_blueprints", "ha_manage_backup", "ha_manage_updates", "ha_manage_hacs", "ha_manage_energy_prefs",
         "ha_manage_pipeline", "ha_manage_calendar", "ha_manage_todo"}


def t_hamcp_read_only_tools(c: Ctx):
    states = c.get("/api/states")
    light = next(s["entity_id"] for s in states if s["entity_id"].startswith("light."))
    flag = "input_boolean.hamcp_test_flag"
    m = McpStdio(c, {"READ_ONLY_MODE": "true"})
    try:
        tools = m.request("tools/list", {})["tools"]
        names = {t["name"] for t in tools}
        for t in tools:
            expect(t.get("annotations", {}).get("readOnlyHint") or t["name"] in MIXED,
                   f"{t['name']} is listed in read-only mode but is not read-only")
        expect({"ha_search", "ha_get_state", "ha_get_history"} <= names, f"tools/list: {sorted(names)}")
        expect("ha_call_service" not in names, "ha_call_service listed in read-only mode")

        before = c.state(light)["state"]
        want = "turn_off" if before == "on" else "turn_on"
        for service in ("turn_on", want):
            r = m.tool("ha_call_service", {"domain": "light", "service": service, "entity_id": light}, ok=False)
            err = r["error"]
            expect(err["code"] == "read_only" and err["written"] is False, f"{service}: {r}")
            expect(err["refused"]["request"] == f"light.{service}", f"refused: {err}")
        flag_before = c.state(flag)["state"]
        r = m.tool("ha_bulk_control", {"operations": [{"entity_id": flag, "action": "toggle"}]}, ok=None)
        expect("read_only" in json.dumps(r), f"bulk control: {json.dumps(r)[:400]}")
        r = m.tool("ha_call_event", {"event_type": "hamcp_read_only_probe"}, ok=False)
        expect(r["error"]["code"] == "read_only", f"event: {r}")
        r = m.tool("ha_config_set", {"kind": "script", "config": {"alias": "hamcp read-only probe",
                                                                   "sequence": []}}, ok=False)
        expect(r["error"]["code"] == "read_only", f"config set: {r}")
        time.sleep(1.0)  # a leaked write would have landed by now
        expect(c.state(light)["state"] == before, f"{light} changed in read-only mode: {c.state(light)}")
        expect(c.state(flag)["state"] == flag_before, f"{flag} changed in read-only mode")

        st = m.tool("ha_get_state", {"entity_id": light})
        expect(before in json.dumps(st), f"ha_get_state: {json.dumps(st)[:300]}")
        found = m.tool("ha_search", {"query": light.split(".")[1].replace("_", " "), "limit": 5})
        expect(light in json.dumps(found), f"ha_search: {json.dumps(found)[:300]}")
        tpl = m.tool("ha_eval_template", {"template": "{{ 20 + 22 }}"})
        expect("42" in json.dumps(tpl), f"template: {tpl}")
        m.tool("ha_get_history", {"entity_id": light})
        settings = m.tool("ha_get_settings", {})["settings"]
        expect(settings["read-only"] == {"value": "true", "source": "env"}, f"settings: {settings['read-only']}")
        expect(settings["ha-token"]["value"] in ("***", ""), f"ha-token shown: {settings['ha-token']}")
        bp = m.tool("ha_manage_blueprints", {"action": "list"})
        expect("error" not in bp, f"blueprint list: {json.dumps(bp)[:300]}")
        backups = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "list"})
        expect("backups" in backups, f"backup list: {json.dumps(backups)[:300]}")
        r = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "create", "name": "hamcp read-only probe"},
                   ok=False)
        expect(r["error"]["code"] == "read_only", f"backup create: {r}")
        expect(m.tool("ha_manage_backup", {"action": "list"})["total"] == backups["total"], "a backup was made")
        m.tool("ha_manage_updates", {"action": "list"})
        pending = [s["entity_id"] for s in c.get("/api/states") if s["entity_id"].startswith("update.") and s["state"] == "on"]
        if pending:
            r = m.tool("ha_manage_updates", {"action": "skip", "entity_ids": pending[0]}, ok=False)
            expect(r["error"]["code"] == "read_only", f"update skip: {r}")
            expect(c.state(pending[0])["state"] == "on", f"{pending[0]} skipped in read-only mode")
    finally:
        m.close()


TESTS = [("hamcp.read_only_tools", t_hamcp_read_only_tools)]
