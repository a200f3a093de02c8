#!/usr/bin/env python3
"""Writes gold's --section-ordering-file for hamcp from callgrind profiles (bench/ha/text_order.sh).

usage: text_order.py BIN OUT PROFILE [PROFILE ...]

Each PROFILE is a callgrind output file; the functions it saw executed in BIN (callgrind's `ob=`
is BIN's path) become input section names, profile by profile (start-up first, then what a sync
and the tool calls added), hottest first within a profile (self instruction count).

A function's section name is exact when BIN was linked with its map (BIN.map, written by
cmake/text_layout.cmake): the symbol's address (nm) falls in one input section of the map. Without
a map (e.g. a binary linked without per-function sections) GCC's naming rule is used:
`.text.NAME`, `.text.unlikely.NAME` for NAME.cold, `.text.startup.NAME` for static initialisers and
main. A function in an object compiled whole (HAMCP_TEXT_SECTIONS_SKIP) is also named by the rule,
so the file serves a build that compiles that object per function. Names gold does not find when
linking are ignored, so a stale file costs only layout.
"""
import bisect
import os
import re
import subprocess
import sys
from collections import defaultdict

COST_LINE = re.compile(r"^[+\-*0-9]")
NAMED = re.compile(r"^\((\d+)\)(?: (.*))?$")


def resolve(table, value):
    """callgrind's name compression: "(id) name" defines id, "(id)" refers to it."""
    m = NAMED.match(value)
    if not m:
        return value
    if m.group(2) is not None:
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1), "")


def self_costs(path, binary):
    """{function name: self Ir} for the functions of `binary` that the profile saw executed."""
    obs, fns = {}, {}
    costs = defaultdict(int)
    ob = fn = ""
    skip_next = False
    real = os.path.realpath(binary)
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if skip_next:  # the inclusive cost of a call, not the caller's own
                skip_next = False
                continue
            key, _, value = line.rstrip("\n").partition("=")
            if key == "ob":
                ob = resolve(obs, value)
            elif key == "cob":
                resolve(obs, value)
            elif key == "fn":
                fn = resolve(fns, value)
            elif key == "cfn":
                resolve(fns, value)
            elif key == "calls":
                skip_next = True
            elif COST_LINE.match(line) and ob and os.path.realpath(ob) == real:
                parts = line.split()
                if len(parts) > 1:
                    costs[fn] += int(parts[1])
    return costs


def clean(name):
    """callgrind marks recursion levels as NAME'2."""
    return re.sub(r"'\d+$", "", name)


def symbol_addresses(binary):
    """{symbol: [addresses]} of BIN's functions (local symbols share names across objects)."""
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    addrs = defaultdict(list)
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            addrs[parts[2]].append(int(parts[0], 16))
    return addrs


def map_sections(map_path, prefix=" .text"):
    """Sorted [(start, end, name, object)] of the input sections gold placed (from `-Map`)
    whose line starts with `prefix`."""
    spans = []
    pending = None
    with open(map_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(prefix):
                parts = line.split()
                if len(parts) == 1:
                    pending = parts[0]
                    continue
                name, rest = parts[0], parts[1:]
            elif pending and line.startswith("      "):
                name, rest = pending, line.split()
            else:
                pending = None
                continue
            pending = None
            if len(rest) >= 3 and rest[0].startswith("0x"):
                start, size = int(rest[0], 16), int(rest[1], 16)
                if start and size:
                    spans.append((start, start + size, name, rest[2]))
    spans.sort()
    return spans


def by_rule(name):
    """GCC's section name for a function when no map says where it is."""
    if name.endswith(".cold"):
        return [".text.unlikely." + name[: -len(".cold")]]
    if name == "main" or name.startswith("_GLOBAL__sub_I_"):
        return [".text.startup." + name]
    return [".text." + name]


def companions(lines, map_path):
    """The read-only data of the ordered functions, in their order: each function's exception
    table (`.gcc_except_table.NAME`, read when an exception passes through it) and its own
    `.rodata.NAME` (switch tables), when the map has them. gold orders these output sections by
    the same file, so the start-up's data sits together as its code does."""
    with open(map_path, encoding="utf-8", errors="replace") as f:
        present = set(re.findall(r"^ (\.(?:gcc_except_table|rodata)\.\S+)", f.read(), re.M))
    out = []
    for kind in (".gcc_except_table.", ".rodata."):
        for section in lines:
            name = re.sub(r"^\.text\.(?:unlikely\.|startup\.)?", "", section)
            if kind + name in present and kind + name not in out:
                out.append(kind + name)
    return out


# The sections of an object compiled without per-function sections (HAMCP_TEXT_SECTIONS_SKIP).
WHOLE = (".text", ".text.unlikely", ".text.hot", ".text.startup")


def sections_for(names, addrs, spans):
    starts = [s[0] for s in spans]
    out = []
    for name in names:
        if not spans:
            if re.fullmatch(r"[\w.$]+", name) and not name.startswith("0x"):
                out.extend(by_rule(name))
            continue
        # callgrind names a function without a symbol by its address.
        found = [int(name, 16)] if name.startswith("0x") else addrs.get(name, [])
        for addr in found:
            i = bisect.bisect_right(starts, addr) - 1
            if i >= 0 and spans[i][0] <= addr < spans[i][1]:
                section = spans[i][2]
                out.append(section)
                if section in WHOLE:  # its own section once the object is compiled per function
                    out.extend(by_rule(name))
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary, out_path, profiles = sys.argv[1], sys.argv[2], sys.argv[3:]
    map_path = binary + ".map"
    spans = map_sections(map_path) if os.path.exists(map_path) else []
    addrs = symbol_addresses(binary) if spans else {}
    seen, lines, unplaced = set(), [], 0
    for profile in profiles:
        costs = self_costs(profile, binary)
        names = sorted((clean(n) for n in costs), key=lambda n: (-costs.get(n, 0), n))
        before = len(lines)
        for section in sections_for(dict.fromkeys(names), addrs, spans):
            # An object compiled without per-function sections (HAMCP_TEXT_SECTIONS_SKIP) has one
            # .text and one .text.unlikely for all its code: never pull those forward. Its
            # .text.startup holds only static initialisers: every one runs at start-up.
            if section not in seen and section not in WHOLE[:3]:
                seen.add(section)
                lines.append(section)
        if spans:
            unplaced += sum(1 for n in set(names) if n not in addrs and not n.startswith("0x"))
        print(f"{os.path.basename(profile)}: {len(costs)} functions executed, "
              f"{len(lines) - before} new sections", file=sys.stderr)
    data = companions(lines, map_path) if spans else []
    if spans:
        size = {s[2]: 0 for s in spans}
        for start, end, name, _ in spans:
            size[name] += end - start
        total = sum(span[1] - span[0] for span in spans)
        print(f"ordered text: {sum(size.get(n, 0) for n in seen) / 1e6:.2f} MB of {total / 1e6:.2f} MB "
              f"(map {map_path}); executed names without a symbol: {unplaced}; "
              f"{len(data)} exception/jump tables", file=sys.stderr)
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("# hamcp's .text order for gold (cmake/text_layout.cmake), hot first, then the same\n"
                "# functions' exception and jump tables; written by bench/ha/text_order.sh from\n"
                "# callgrind profiles. Regenerate, do not edit.\n")
        f.write("\n".join(lines + data) + "\n")
    print(f"{out_path}: {len(lines) + len(data)} sections", file=sys.stderr)


if __name__ == "__main__":
    main()
