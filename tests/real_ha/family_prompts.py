"""Prompts, completion and the skills guide through hamcp's MCP stdio against this real Home
Assistant: troubleshoot_automation on the test config's automation (its config and recent runs from
HA), completion of automation ids, areas and periods, review_energy, tidy_areas_and_names,
write_automation, a missing argument refused with -32602, the skill:// resources and
ha_get_skill_guide."""

from __future__ import annotations

import json

from check_kit import Ctx, McpStdio, expect

AUTOMATION = "automation.hamcp_flag_on_sets_away"
SKILL_MD = "skill://home-assistant-authoring/SKILL.md"


def raw(m: McpStdio, method: str, params: dict) -> dict:
    """The whole JSON-RPC response (result or error)."""
    m.next_id += 1
    m.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": m.next_id, "method": method, "params": params}) + "\n")
    m.p.stdin.flush()
    while True:
        line = m.p.stdout.readline()
        expect(line, f"hamcp closed stdout during {method}")
        msg = json.loads(line)
        if msg.get("id") == m.next_id:
            return msg


def complete(m: McpStdio, prompt: str, argument: str, value: str) -> list[str]:
    r = m.request("completion/complete", {"ref": {"type": "ref/prompt", "name": prompt},
                                          "argument": {"name": argument, "value": value}})
    return r["completion"]["values"]


def prompt_text(m: McpStdio, name: str, arguments: dict) -> str:
    r = m.request("prompts/get", {"name": name, "arguments": arguments})
    return r["messages"][0]["content"]["text"]


def t_prompts(c: Ctx):
    m = McpStdio(c)
    try:
        names = {p["name"] for p in m.request("prompts/list", {})["prompts"]}
        expect({"troubleshoot_automation", "review_energy", "tidy_areas_and_names", "write_automation"} <= names,
               f"prompts/list: {sorted(names)}")
        ids = complete(m, "troubleshoot_automation", "automation_id", "automation.hamcp")
        expect(AUTOMATION in ids, f"completion: {ids}")
        text = prompt_text(m, "troubleshoot_automation", {"automation_id": AUTOMATION})
        expect("input_boolean.hamcp_test_flag" in text and "Recent runs" in text, f"troubleshoot: {text[:800]}")
        expect(complete(m, "review_energy", "period", "ye") == ["year", "yesterday"] or
               complete(m, "review_energy", "period", "ye") == ["yesterday", "year"], "period completion")
        energy = prompt_text(m, "review_energy", {"period": "week"})
        expect("energy" in energy.lower(), f"energy: {energy[:400]}")
        areas = complete(m, "tidy_areas_and_names", "area", "")
        tidy = prompt_text(m, "tidy_areas_and_names", {"area": areas[0]} if areas else {})
        expect("ha_set_registry" in tidy, f"tidy: {tidy[:400]}")
        write = prompt_text(m, "write_automation", {"description": "when the hamcp test flag turns on, notify me"})
        expect("input_boolean.hamcp_test_flag" in write, f"write_automation: {write[:800]}")
        missing = raw(m, "prompts/get", {"name": "troubleshoot_automation", "arguments": {}})
        expect(missing.get("error", {}).get("code") == -32602, f"missing argument: {missing}")
    finally:
        m.close()


def t_skills(c: Ctx):
    m = McpStdio(c)
    try:
        uris = {r["uri"] for r in m.request("resources/list", {})["resources"]}
        expect(SKILL_MD in uris, f"resources/list: {sorted(uris)}")
        md = m.request("resources/read", {"uri": SKILL_MD})["contents"][0]["text"]
        expect(md.startswith("---\nname: home-assistant-authoring\n"), md[:200])
        listed = m.request("skills/list", {})["skills"]
        expect(listed and listed[0]["uri"] == SKILL_MD, f"skills/list: {listed}")
        guide = m.tool("ha_get_skill_guide", {"topic": "automations"})
        expect("# Automations" in guide["text"], f"guide: {str(guide)[:300]}")
    finally:
        m.close()


TESTS = [("hamcp.prompts_prompts_and_completion", t_prompts), ("hamcp.prompts_skills_guide", t_skills)]
