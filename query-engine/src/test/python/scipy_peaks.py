"""Occupied bytes per step of every corpus module, read from the dump text alone, and the peaks
scipy.signal.find_peaks finds on them with prominence = max / 5 (what a Python analysis does).
Writes the golden file PeaksScipyTest compares bufq's peaks with.

Usage: python3 scipy_peaks.py CORPUS_DIR > ../resources/bufq/analysis/scipy-peaks.tsv
"""
import os
import re
import sys

import numpy as np
from scipy.signal import find_peaks

HEADER = re.compile(r"^ value: <(\d+) (\S+?)(\{[0-9,]*\})?( \(phi\))? @\d+> \(size=(\d+),offset=(\d+)\)")
ALLOC = re.compile(r"^allocation (\d+): ")
RANGE = re.compile(r"^\s+(\S+):(\d+)-(\d+)$")


def module_files(path):
    prefix = path[: -len("-buffer-assignment.txt")]
    files = [path]
    for kind in ("-buffer-assignment-values.txt", "-live-range.txt"):
        if os.path.exists(prefix + kind):
            files.append(prefix + kind)
    return files


def occupancy(files):
    values, ranges, max_time, alloc, mode = [], {}, None, None, ""
    for f in files:
        for line in open(f, encoding="utf-8"):
            line = line.rstrip("\n")
            m = re.match(r"HloLiveRange \(max (\d+)\)", line)
            if m:
                max_time = int(m.group(1))
                continue
            s = line.strip()
            if s == "BufferLiveRange:":
                mode = "range"
                continue
            if s.startswith("Live ranges at") or s == "InstructionSequence:":
                mode = ""
                continue
            if mode == "range":
                m = RANGE.match(line)
                if m:
                    ranges.setdefault(m.group(1), (int(m.group(2)), int(m.group(3))))
                continue
            m = ALLOC.match(line)
            if m:
                alloc = int(m.group(1))
                continue
            m = HEADER.match(line)
            if m:
                key = m.group(2) + (m.group(3) or "{}")
                values.append((alloc, int(m.group(6)), int(m.group(5)), key))
    if max_time is None:
        return None
    steps = max_time + 1
    occupied = np.zeros(steps, dtype=np.int64)
    for t in range(steps):
        by_alloc = {}
        for a, off, size, key in values:
            r = ranges.get(key)
            if r and r[0] <= t <= r[1] and size > 0:
                by_alloc.setdefault(a, []).append((off, off + size))
        total = 0
        for spans in by_alloc.values():
            spans.sort()
            end = None
            for lo, hi in spans:
                if end is None or lo > end:
                    total += hi - lo
                    end = hi
                elif hi > end:
                    total += hi - end
                    end = hi
        occupied[t] = total
    return occupied


def main(corpus):
    rows = []
    for root, _, names in os.walk(corpus):
        for n in sorted(names):
            if n.endswith("-buffer-assignment.txt"):
                path = os.path.join(root, n)
                x = occupancy(module_files(path))
                if x is None or len(x) == 0:
                    continue
                peaks, props = find_peaks(x.astype(np.float64), prominence=x.max() / 5)
                rows.append("\t".join([os.path.relpath(path, corpus), str(len(x)), str(int(x.max())),
                                       ",".join(str(p) for p in peaks),
                                       ",".join(str(int(p)) for p in props["prominences"])]))
    for r in sorted(rows):
        print(r)


if __name__ == "__main__":
    main(sys.argv[1])
