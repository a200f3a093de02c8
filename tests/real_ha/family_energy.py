"""hamcp's energy and voice tools (ha_manage_energy_prefs, ha_manage_pipeline) through MCP against real
HA: the Energy prefs read with their config_hash, a device added as a dry run (nothing saved), then
saved with the hash, a stale hash refused, an unknown statistic named by its field, the save restored
from the journal; Assist pipelines listed, one created, updated and preferred (and the preference
restored), and "turn on <a demo light>" processed through Assist, the light's state changing."""

from __future__ import annotations

import json
import time

from check_kit import Ctx, McpStdio, expect, wait_until


def _ws(c: Ctx, msg: dict):
    ws = c.ws()
    try:
        return ws.call(msg)
    finally:
        ws.close()


def _energy_sensor(c: Ctx) -> str:
    """A sensor whose statistics are sums (an energy meter of the demo), for a device consumption."""
    stats = _ws(c, {"type": "recorder/list_statistic_ids", "statistic_type": "sum"})
    ids = [s["statistic_id"] for s in stats if ":" not in s["statistic_id"]]
    expect(ids, f"no sum statistic in this HA: {stats}")
    return ids[0]


def t_energy_prefs(c: Ctx):
    m = McpStdio(c)
    try:
        got = m.tool("ha_manage_energy_prefs", {"mode": "get", "include_statistics": True})
        before_hash = got["config_hash"]
        devices = got["prefs"].get("device_consumption", [])
        stat = _energy_sensor(c)
        expect(all(d["stat_consumption"] != stat for d in devices), f"{stat} already a device: {devices}")
        dry = m.tool("ha_manage_energy_prefs", {"mode": "add_device", "stat_consumption": stat, "name": "hamcp",
                                                "dry_run": True})
        expect(not dry["saved"] and dry["diff"] and dry["diff"][0]["op"] == "add", f"dry run: {dry}")
        again = m.tool("ha_manage_energy_prefs", {"mode": "get"})
        expect(again["config_hash"] == before_hash, f"dry run saved something: {again}")
        stale = m.tool("ha_manage_energy_prefs", {"mode": "set", "config_hash": "0000000000000000",
                                                  "config": {"device_consumption": []}}, ok=False)
        expect(stale["error"]["code"] == "stale_config_hash" and stale["error"]["written"] is False, f"stale: {stale}")
        unknown = m.tool("ha_manage_energy_prefs", {"mode": "add_device",
                                                    "stat_consumption": "sensor.hamcp_no_such_meter"}, ok=False)
        expect(unknown["error"]["code"] == "unknown_statistic" and "stat_consumption" in unknown["error"]["message"],
               f"unknown statistic: {unknown}")
        new_devices = devices + [{"stat_consumption": stat, "name": "hamcp"}]
        saved = m.tool("ha_manage_energy_prefs", {"mode": "set", "config_hash": before_hash,
                                                  "config": {"device_consumption": new_devices}})
        expect(saved["saved"] and saved["edit_id"], f"save: {saved}")
        ha_prefs = _ws(c, {"type": "energy/get_prefs"})
        expect(any(d["stat_consumption"] == stat for d in ha_prefs["device_consumption"]), f"HA's prefs: {ha_prefs}")
        restored = m.tool("ha_config_set", {"restore": saved["edit_id"]})
        expect(restored["result"] == "restored", f"restore: {restored}")
        ha_prefs = _ws(c, {"type": "energy/get_prefs"})
        expect(all(d["stat_consumption"] != stat for d in ha_prefs["device_consumption"]), f"after restore: {ha_prefs}")
    finally:
        m.close()


def _light(c: Ctx) -> dict:
    lights = [s for s in c.get("/api/states") if s["entity_id"].startswith("light.")
              and s["state"] in ("on", "off") and s["attributes"].get("friendly_name")]
    expect(lights, "no demo light")
    return lights[0]


def t_pipelines_and_assist(c: Ctx):
    m = McpStdio(c)
    try:
        listed = m.tool("ha_manage_pipeline", {"action": "list"})
        preferred = listed["preferred_pipeline"]
        expect(listed["pipelines"] and preferred, f"list: {listed}")
        made = m.tool("ha_manage_pipeline", {"action": "create", "name": "hamcp test", "language": "en"})
        pid = made["pipeline"]["id"]
        upd = m.tool("ha_manage_pipeline", {"action": "update", "pipeline_id": pid, "name": "hamcp test 2",
                                            "prefer_local_intents": True})
        expect(upd["pipeline"]["name"] == "hamcp test 2" and upd["pipeline"]["prefer_local_intents"], f"update: {upd}")
        pref = m.tool("ha_manage_pipeline", {"action": "set_preferred", "pipeline_id": pid})
        got = m.tool("ha_manage_pipeline", {"action": "get"})
        expect(got["pipeline"]["id"] == pid, f"preferred: {got}")
        m.tool("ha_config_set", {"restore": pref["edit_id"]})
        expect(m.tool("ha_manage_pipeline", {"action": "list"})["preferred_pipeline"] == preferred, "preferred restored")
        m.tool("ha_config_set", {"restore": made["edit_id"]})  # undoes the create: deleted
        ids = [p["id"] for p in m.tool("ha_manage_pipeline", {"action": "list"})["pipelines"]]
        expect(pid not in ids, f"created pipeline still there: {ids}")
        light = _light(c)
        eid, name = light["entity_id"], light["attributes"]["friendly_name"]
        m.tool("ha_call_service", {"domain": "light", "service": "turn_off", "entity_id": eid})
        wait_until(f"{eid} off", lambda: c.state(eid)["state"] == "off")
        said = m.tool("ha_manage_pipeline", {"action": "process", "sentence": f"turn on the {name}"})
        expect(said["response_type"] == "action_done", f"process: {json.dumps(said)[:600]}")
        expect(any(t.get("id") == eid for t in said.get("success", [])), f"success: {said}")
        wait_until(f"{eid} on", lambda: c.state(eid)["state"] == "on")
        bad = m.tool("ha_manage_pipeline", {"action": "get", "pipeline_id": "hamcp_no_such_pipeline"}, ok=False)
        expect(bad["error"]["code"] == "pipeline_not_found", f"unknown pipeline: {bad}")
    finally:
        m.close()


def t_read_only(c: Ctx):
    """In read-only mode the prefs and pipelines read, a dry run answers, and a save or a sentence
    (Assist may switch devices) is refused before it reaches HA: the light stays as it was."""
    light = _light(c)
    eid, name = light["entity_id"], light["attributes"]["friendly_name"]
    m = McpStdio(c, {"READ_ONLY_MODE": "true"})
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect({"ha_manage_energy_prefs", "ha_manage_pipeline"} <= names, f"mixed tools listed: {sorted(names)}")
        got = m.tool("ha_manage_energy_prefs", {"mode": "get", "include_statistics": True})
        stat = _energy_sensor(c)
        dry = m.tool("ha_manage_energy_prefs", {"mode": "add_device", "stat_consumption": stat, "dry_run": True})
        expect(not dry["saved"], f"dry run: {dry}")
        refused = m.tool("ha_manage_energy_prefs", {"mode": "add_device", "stat_consumption": stat}, ok=False)
        expect(refused["error"]["code"] == "read_only", f"save: {refused}")
        expect(m.tool("ha_manage_energy_prefs", {"mode": "get"})["config_hash"] == got["config_hash"], "prefs changed")
        m.tool("ha_manage_pipeline", {"action": "list"})
        before = c.state(eid)["state"]
        verb = "off" if before == "on" else "on"
        said = m.tool("ha_manage_pipeline", {"action": "process", "sentence": f"turn {verb} the {name}"}, ok=False)
        expect(said["error"]["code"] == "read_only", f"process: {said}")
        time.sleep(1.0)  # a leaked write would have landed by now
        expect(c.state(eid)["state"] == before, f"{eid} changed in read-only mode")
    finally:
        m.close()


TESTS = [
    ("hamcp.energy_prefs", t_energy_prefs),
    ("hamcp.energy_pipelines_and_assist", t_pipelines_and_assist),
    ("hamcp.energy_read_only", t_read_only),
]
