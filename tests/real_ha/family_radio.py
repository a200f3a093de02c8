"""The radio family (ha_manage_radio) through hamcp's MCP stdio against this real Home Assistant,
which has no Zigbee, Z-Wave, Thread or Matter radio set up: each radio's read and write actions
answer radio_not_configured naming the missing config entry (nothing sent to a radio API), the
health includes zha_network/zwave_network/thread_network/matter_network say "configured": false,
Zigbee's reconfigure, cluster_write and cluster_command answer radio_not_configured too, and an
unknown action is refused naming the ones that exist."""

from __future__ import annotations

import json

from check_kit import Ctx, McpStdio, expect

RADIOS = {"zigbee": "ZHA", "zwave": "Z-Wave JS", "thread": "Thread", "matter": "Matter"}


def t_not_configured(c: Ctx):
    m = McpStdio(c)
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect("ha_manage_radio" in names, f"tools/list: {sorted(names)}")
        for radio, label in RADIOS.items():
            for action in ("network_status", "diagnostics"):
                err = m.tool("ha_manage_radio", {"radio": radio, "action": action}, ok=False)["error"]
                expect(err["code"] == "radio_not_configured", f"{radio} {action}: {err}")
                expect(err["message"].startswith(f"no {label} config entry"), f"{radio} message: {err['message']}")
        write = m.tool("ha_manage_radio", {"radio": "zigbee", "action": "permit_join", "params": {"duration": 30}},
                       ok=False)["error"]
        expect(write["code"] == "radio_not_configured", f"permit_join: {write}")
        h = m.tool("ha_get_system_health",
                   {"include": "zha_network,zwave_network,thread_network,matter_network"})
        for key in ("zha_network", "zwave_network", "thread_network", "matter_network"):
            expect(h[key]["configured"] is False and "config entry" in h[key]["message"], f"{key}: {h.get(key)}")
    finally:
        m.close()


def t_unknown_action_names_what_exists(c: Ctx):
    m = McpStdio(c)
    try:
        bad = m.tool("ha_manage_radio", {"radio": "zwave", "action": "explode"}, ok=False)["error"]
        expect(bad["code"] == "invalid_argument" and "action" in json.dumps(bad), f"unknown action: {bad}")
        expect("hard_reset" in bad["available_actions"], f"available_actions: {bad}")
    finally:
        m.close()


# One action per radio added by issue 12 item 5's second round: each answers radio_not_configured here.
NEW_ACTIONS = [
    ("zigbee", "network_backup", {}, "no ZHA config entry"),
    ("zwave", "hard_reset", {}, "no Z-Wave JS config entry"),
    ("thread", "create_network", {}, "no OpenThread Border Router config entry"),
    ("matter", "commission", {"code": "3497-011-2332"}, "no Matter config entry"),
    # issue 12 item 5's last three Zigbee actions (nothing reaches ZHA's API or its services)
    ("zigbee", "reconfigure", {}, "no ZHA config entry"),
    ("zigbee", "cluster_write", {"cluster_id": 6, "attribute": 0, "value": 1}, "no ZHA config entry"),
    ("zigbee", "cluster_command", {"cluster_id": 6, "command": "toggle"}, "no ZHA config entry"),
]


def t_new_actions_not_configured(c: Ctx):
    m = McpStdio(c)
    try:
        for radio, action, params, words in NEW_ACTIONS:
            err = m.tool("ha_manage_radio", {"radio": radio, "action": action, "params": params}, ok=False)["error"]
            expect(err["code"] == "radio_not_configured", f"{radio} {action}: {err}")
            expect(err["message"].startswith(words), f"{radio} {action} message: {err['message']}")
    finally:
        m.close()


TESTS = [
    ("hamcp.radio.not_configured", t_not_configured),
    ("hamcp.radio.unknown_action", t_unknown_action_names_what_exists),
    ("hamcp.radio.new_actions_not_configured", t_new_actions_not_configured),
]
