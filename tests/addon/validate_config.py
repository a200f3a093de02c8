"""Checks addon/hamcp/config.yaml, build.yaml and translations against the rules the Home Assistant
Supervisor applies when it loads an add-on. The rules are facts read from home-assistant/supervisor
(commit 090ef31, 2026-08-21): supervisor/apps/validate.py (SCHEMA_ADDON_CONFIG: required name,
version, slug, description, arch; startup, boot, init, ports), supervisor/apps/options.py
(RE_SCHEMA_ELEMENT: the option types), supervisor/apps/const.py (RE_SLUG), supervisor/const.py
(architectures, AppStartup, AppBootConfig) and supervisor/validate.py (docker_port, network_port).
Exit 0 and "ok" when valid, else 1 and every problem found."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

RE_SLUG = re.compile(r"^[-_.A-Za-z0-9]+$")
ARCHES = {"aarch64", "amd64", "armhf", "armv7", "i386"}
STARTUP = {"initialize", "system", "services", "application", "once"}
BOOT = {"auto", "manual", "manual_only"}
RE_DOCKER_PORT = re.compile(r"^\d+(?:/tcp|/udp)?$")
RE_SCHEMA_ELEMENT = re.compile(
    r"^(?:"
    r"|bool|email|url|port"
    r"|device(?:\((?P<filter>subsystem=[a-z]+)\))?"
    r"|str(?:\((?P<s_min>\d+)?,(?P<s_max>\d+)?\))?"
    r"|password(?:\((?P<p_min>\d+)?,(?P<p_max>\d+)?\))?"
    r"|int(?:\((?P<i_min>-?\d+)?,(?P<i_max>-?\d+)?\))?"
    r"|float(?:\((?P<f_min>-?\d*\.?\d+)?,(?P<f_max>-?\d*\.?\d+)?\))?"
    r"|match\((?P<match>.*)\)"
    r"|list\((?P<list>.+)\)"
    r")\??$")


def check_value(name: str, kind: str, value, problems: list[str]) -> None:
    """The option's default must be valid for its schema type (the Supervisor validates options)."""
    m = RE_SCHEMA_ELEMENT.match(kind)
    base = kind.rstrip("?").split("(")[0]
    if base in ("str", "password") and not isinstance(value, str):
        problems.append(f"options.{name}: {value!r} is not a string")
    elif base == "bool" and not isinstance(value, bool):
        problems.append(f"options.{name}: {value!r} is not a bool")
    elif base in ("int", "float", "port"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (base == "int" and not isinstance(value, int)):
            problems.append(f"options.{name}: {value!r} is not a number of type {base}")
            return
        lo = m.group("i_min") or m.group("f_min") if m else None
        hi = m.group("i_max") or m.group("f_max") if m else None
        if (lo is not None and value < float(lo)) or (hi is not None and value > float(hi)):
            problems.append(f"options.{name}: {value} is outside {kind}")
    elif base == "list" and value not in m.group("list").split("|"):
        problems.append(f"options.{name}: {value!r} is not one of {m.group('list')}")


def validate(folder: Path) -> list[str]:
    problems: list[str] = []
    config = yaml.safe_load((folder / "config.yaml").read_text())
    for key in ("name", "version", "slug", "description", "arch"):
        if key not in config:
            problems.append(f"config.yaml: required key '{key}' is missing")
    if not RE_SLUG.match(str(config.get("slug", ""))):
        problems.append(f"slug {config.get('slug')!r} does not match {RE_SLUG.pattern}")
    if not isinstance(config.get("version"), str):
        problems.append("version must be a string (quote it)")
    bad_arch = set(config.get("arch", [])) - ARCHES
    if bad_arch or not config.get("arch"):
        problems.append(f"arch: {sorted(bad_arch) or 'empty'} not in {sorted(ARCHES)}")
    if config.get("startup", "application") not in STARTUP:
        problems.append(f"startup {config.get('startup')!r} not in {sorted(STARTUP)}")
    if config.get("boot", "auto") not in BOOT:
        problems.append(f"boot {config.get('boot')!r} not in {sorted(BOOT)}")
    if not isinstance(config.get("init", True), bool):
        problems.append("init must be a bool")
    for port, host_port in (config.get("ports") or {}).items():
        if not RE_DOCKER_PORT.match(str(port)):
            problems.append(f"ports: {port!r} is not <port>[/tcp|/udp]")
        if host_port is not None and not (isinstance(host_port, int) and 1 <= host_port <= 65535):
            problems.append(f"ports.{port}: {host_port!r} is not a port 1-65535 or null")
    for port in config.get("ports_description") or {}:
        if port not in (config.get("ports") or {}):
            problems.append(f"ports_description.{port}: no such port")
    schema, options = config.get("schema") or {}, config.get("options") or {}
    for name, kind in schema.items():
        if not isinstance(kind, str) or not RE_SCHEMA_ELEMENT.match(kind):
            problems.append(f"schema.{name}: {kind!r} is not a Supervisor option type")
        elif name in options:
            check_value(name, kind, options[name], problems)
        elif not kind.endswith("?"):
            problems.append(f"schema.{name}: required ({kind!r} has no '?') but has no default in options")
    for name in options:
        if name not in schema:
            problems.append(f"options.{name}: not in schema")

    build = yaml.safe_load((folder / "build.yaml").read_text())
    if set(build.get("build_from", {})) != set(config.get("arch", [])):
        problems.append("build.yaml: build_from must name exactly the architectures of config.yaml")
    dockerfile = (folder / "Dockerfile").read_text()
    if "ARG BUILD_FROM" not in dockerfile or "${BUILD_FROM}" not in dockerfile:
        problems.append("Dockerfile: must build FROM ${BUILD_FROM}")
    translations = yaml.safe_load((folder / "translations" / "en.yaml").read_text())
    for name in schema:
        if name not in (translations.get("configuration") or {}):
            problems.append(f"translations/en.yaml: configuration.{name} has no name/description")
    return problems


if __name__ == "__main__":
    found = validate(Path(sys.argv[1]))
    for p in found:
        print(f"addon config: {p}")
    print("addon config: ok" if not found else f"addon config: {len(found)} problem(s)")
    sys.exit(1 if found else 0)
