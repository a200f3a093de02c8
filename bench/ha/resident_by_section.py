#!/usr/bin/env python3
"""Which parts of a running hamcp's own file are resident, by output section kind and library.

usage: resident_by_section.py PID BIN [MAP]     (MAP: BIN.map, written by cmake/text_layout.cmake)

Reads /proc/PID/maps and /proc/PID/pagemap (the "present" bit of every page of BIN's mappings) and
attributes each resident 4 KiB page to the input sections of the linker map that overlap it, summed
by (section kind, archive), e.g. `text libhamcp_tools.a`. bench/RESULTS-ha.md, step 8, used it on an
idle server (`bench/ha/idle_smaps.sh` starts one the same way).
"""
import bisect
import collections
import os
import re
import struct
import sys

from text_order import map_sections

PAGE = 4096


def resident_offsets(pid, binary):
    """Offsets (from BIN's load base) of its resident pages."""
    maps = []
    with open(f"/proc/{pid}/maps", encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[5] == binary:
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                maps.append((lo, hi, int(parts[2], 16)))
    if not maps:
        sys.exit(f"{binary} is not mapped by process {pid}")
    base = min(lo - off for lo, _, off in maps)
    present = []
    with open(f"/proc/{pid}/pagemap", "rb") as pm:
        for lo, hi, _ in maps:
            pm.seek(lo // PAGE * 8)
            data = pm.read((hi - lo) // PAGE * 8)
            for i in range(0, len(data), 8):
                if struct.unpack_from("<Q", data, i)[0] >> 63:
                    present.append(lo - base + i // 8 * PAGE)
    return present


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pid, binary = sys.argv[1], os.path.realpath(sys.argv[2])
    spans = map_sections(sys.argv[3] if len(sys.argv) > 3 else binary + ".map", prefix=" .")
    starts = [s[0] for s in spans]
    present = resident_offsets(pid, binary)
    by = collections.Counter()
    for page in present:
        j = max(bisect.bisect_right(starts, page) - 1, 0)
        while j < len(spans) and spans[j][0] < page + PAGE:
            start, end, name, obj = spans[j]
            overlap = min(end, page + PAGE) - max(start, page)
            if overlap > 0:
                lib = re.sub(r"\(.*", "", os.path.basename(obj))
                by[(name.split(".")[1], lib)] += overlap
            j += 1
    print(f"{binary}: {len(present) * PAGE // 1024} kB resident")
    for (kind, lib), size in by.most_common(25):
        print(f"{size / 1024:8.0f} kB  {kind:18s} {lib}")


if __name__ == "__main__":
    main()
