"""Registry family checks against a real Home Assistant: floors, areas, labels, categories, zones,
devices and voice exposure through ha_get_registry / ha_set_registry / ha_remove_registry and
ha-mcp's names for them."""

from __future__ import annotations

import json

from check_kit import Ctx, McpStdio, expect, wait_until


def t_hamcp_registry_tools(c: Ctx):
    """A floor and an area created, a demo entity moved into the area and labelled, the area renamed
    and the entity found by ha_search under the new name at once; a device renamed (and named back),
    its removal previewed (and refused where the integration does not allow it); a category and a
    zone created and removed; exposure read; label, area and floor removed (preview, then confirm)."""
    m = McpStdio(c)
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect({"ha_get_registry", "ha_set_registry", "ha_remove_registry"} <= names, f"tools/list: {sorted(names)}")
        floor = m.tool("ha_set_area_or_floor", {"kind": "floor", "name": "hamcp Test Floor", "level": 7})
        area = m.tool("ha_set_registry", {"kind": "area", "name": "hamcp Test Room", "floor_id": floor["id"]})
        expect(area["item"]["floor_id"] == floor["id"] and area["mirror"]["done"], f"area: {area}")
        label = m.tool("ha_config_set_label", {"name": "hamcp test label", "color": "indigo"})
        tree = m.tool("ha_list_floors_areas", {})
        mine = [f for f in tree["items"] if f["floor_id"] == floor["id"]]
        expect(mine and [a["area_id"] for a in mine[0]["areas"]] == [area["id"]], f"floor tree: {tree}")

        devices = m.tool("ha_get_registry", {"kind": "device", "limit": 100})["items"]
        expect(devices, "the demo integration made no devices")
        device, entity = None, None
        for d in devices:
            detail = m.tool("ha_get_device", {"device_id": d["id"]})["item"]
            live = [e["entity_id"] for e in detail.get("entities", [])
                    if not e.get("disabled_by") and "entity_id" in c.state(e["entity_id"])]
            if live:
                device, entity = detail, live[0]
                break
        expect(device is not None, f"no device with a live entity: {devices[:3]}")
        m.tool("ha_set_entity", {"entity_id": entity, "area": area["id"], "labels": [label["id"]]})
        renamed = m.tool("ha_set_registry", {"kind": "area", "id": area["id"], "name": "hamcp Potting Shed"})
        expect(renamed["changed"][0]["before"] == "hamcp Test Room"
               and renamed["changed"][0]["after"] == "hamcp Potting Shed", f"rename: {renamed}")

        last = {}

        def found_by_new_name():
            last["search"] = m.tool("ha_search", {"query": "hamcp Potting Shed"})
            return any(r.get("entity_id") == entity for r in last["search"].get("results", []))
        expect(wait_until("search finds the entity under the new area name", found_by_new_name, timeout=5),
               f"{entity} not found by the new area name: {json.dumps(last.get('search'))[:600]}")

        old_name = device.get("name_by_user")
        m.tool("ha_set_device", {"device_id": device["id"], "name": "hamcp renamed device"})
        by_name = m.tool("ha_get_registry", {"kind": "device", "id": "hamcp renamed device"})
        expect(by_name["item"]["id"] == device["id"], f"device by new name: {by_name}")
        m.tool("ha_set_registry", {"kind": "device", "id": device["id"], "name": old_name or ""})
        preview = m.tool("ha_remove_registry", {"kind": "device", "id": device["id"]})
        expect(preview["result"] == "preview" and "removable" in preview, f"device removal preview: {preview}")
        if not preview["removable"]:
            refused = m.tool("ha_remove_registry", {"kind": "device", "id": device["id"], "confirm": True}, ok=False)
            expect(refused["error"]["code"] == "device_not_removable", f"refused: {refused}")

        cat = m.tool("ha_config_set_category", {"name": "hamcp category", "scope": "automation"})
        cats = m.tool("ha_config_get_category", {"scope": "automation"})
        expect(any(i["category_id"] == cat["id"] for i in cats["items"]), f"categories: {cats}")
        m.tool("ha_config_remove_category", {"scope": "automation", "category_id": cat["id"]})
        zone = m.tool("ha_set_zone", {"name": "hamcp zone", "latitude": 52.37, "longitude": 4.89, "radius": 50})
        z = m.tool("ha_get_zone", {"zone_id": zone["id"]})
        expect(z["item"]["radius"] == 50, f"zone: {z}")
        m.tool("ha_remove_zone", {"zone_id": zone["id"]})
        exposure = m.tool("ha_get_entity_exposure", {"entity_id": entity})
        expect(set(exposure["expose"]) >= {"conversation", "cloud.alexa", "cloud.google_assistant"}, f"{exposure}")

        m.tool("ha_set_entity", {"entity_id": entity, "area": None, "labels": []})
        for kind, ident in (("label", label["id"]), ("area", area["id"]), ("floor", floor["id"])):
            look = m.tool("ha_remove_registry", {"kind": kind, "id": ident})
            expect(look["result"] == "preview", f"{kind} preview: {look}")
            gone = m.tool("ha_remove_registry", {"kind": kind, "id": ident, "confirm": True})
            expect(gone["result"] == "removed" and gone["edit_id"], f"{kind} removed: {gone}")
    finally:
        m.close()


TESTS = [("hamcp.registry_tools", t_hamcp_registry_tools)]
