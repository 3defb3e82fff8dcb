#!/usr/bin/env python3
"""Reference parser for XLA buffer-assignment dumps, written the way people usually write one.

It is the comparison point: a regex per line, a dict per value, the live ranges joined
to the values by (name, index), instructions kept as parsed dicts. It reads a jaxlib-0.10 four-file
set (any of its files or its directory) or a single-file dump, and prints a summary like
`bufq -c summary`: allocations, values, instructions, total bytes, the peak step with its bytes
recomputed from the live ranges, and the dump's own claim.

Usage: xla_buffers.py PATH [--query]   (--query also runs `live at <middle step>`)
"""
import os
import re
import sys

ALLOC_RE = re.compile(
    r"^allocation (\d+): (?:(0x[0-9a-f]+), )?size (\d+)"
    r"(?:, color (\d+))?"
    r"(?:, parameter (\d+), shape \|(.*?)\| at ShapeIndex (\{[0-9,]*\}))?"
    r"(?:, output shape is \|(.*?)\|)?"
    r"(, constant)?(, thread-local)?(, maybe-live-out)?(, preallocated-temp)?:$")
VALUE_RE = re.compile(
    r"^ value: <(\d+) ([\w.\-]+)(\{[0-9,]*\})?( \(phi\))? @(\d+)> \(size=(\d+),offset=(\d+)\): (.*)$")
BLOCK_RE = re.compile(r"^<(\d+) ([\w.\-]+)(\{[0-9,]*\})?( \(phi\))? @(\d+)>$")
POSITION_RE = re.compile(r"^  ([\w.\-]+)(?: (\{[0-9,]*\}))?$")
USE_RE = re.compile(r"^  ([\w.\-]+), operand (\d+)(?: (\{[0-9,]*\}))?$")
INSTR_RE = re.compile(r"^ from instruction: ?%([\w.\-]+) = (\(.*?\)|\S+) ([\w\-]+)\((.*?)\)(.*)$")
OPERAND_RE = re.compile(r"%([\w.\-]+)")
METADATA_RE = re.compile(r'op_name="((?:[^"\\]|\\.)*)"')
SOURCE_RE = re.compile(r'source_file="([^"]*)" source_line=(\d+)')
TOTAL_RE = re.compile(r"^Total bytes used: (\d+)")
MAXT_RE = re.compile(r"^HloLiveRange \(max (\d+)\):$")
SEQ_RE = re.compile(r"^    (\d+):([\w.\-]+)$")
RANGE_RE = re.compile(r"^    ([\w.\-]+)(\{[0-9,]*\}):(\d+)-(\d+)$")
PEAK_AT_RE = re.compile(r"^  Live ranges at (\d+) \(peak\):$")
PEAK_RE = re.compile(r"^    ([\w.\-]+)(\{[0-9,]*\})?: (\d+) bytes(?: \(cumulative: (\d+) bytes\))?$")
SHAPE_RE = re.compile(r"^(\w+)\[([^\]]*)\]")

BITS = {"pred": 8, "s8": 8, "u8": 8, "s16": 16, "u16": 16, "f16": 16, "bf16": 16, "s32": 32, "u32": 32,
        "f32": 32, "s64": 64, "u64": 64, "f64": 64, "c64": 64, "c128": 128, "s4": 4, "u4": 4}


def byte_size(shape):
    """ShapeUtil::ByteSizeOf: a tuple is its pointer table, arrays are elements times width."""
    if shape.startswith("("):
        depth, n = 0, 1
        for c in shape:
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            elif c == "," and depth == 1:
                n += 1
        return 8 * n
    m = SHAPE_RE.match(shape)
    if not m:
        return 8
    if m.group(1) == "token":
        return 0
    n = 1
    for d in filter(None, m.group(2).split(",")):
        n *= 0 if d == "?" else int(d.lstrip("<="))
    return (n * BITS.get(m.group(1), 32) + 7) // 8


def module_files(path):
    if os.path.isdir(path):
        names = [os.path.join(path, f) for f in sorted(os.listdir(path)) if f.endswith("-buffer-assignment.txt")]
        path = names[0]
    prefix = re.sub(r"-(buffer-assignment|buffer-assignment-values|live-range|memory-usage-report)\.txt$", "", path)
    kinds = ["-buffer-assignment.txt", "-buffer-assignment-values.txt", "-live-range.txt"]
    return [prefix + k for k in kinds if os.path.exists(prefix + k)]


def parse(path):
    m = {"allocations": [], "values": {}, "instructions": {}, "sequence": [], "ranges": {},
         "peak": None, "peak_entries": [], "total": None, "max_time": -1}
    value = None
    section = None
    for fname in module_files(path):
        with open(fname, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                a = ALLOC_RE.match(line)
                if a:
                    m["allocations"].append({
                        "index": int(a.group(1)), "size": int(a.group(3)), "color": int(a.group(4) or 0),
                        "parameter": int(a.group(5)) if a.group(5) else None, "parameter_shape": a.group(6),
                        "output_shape": a.group(8), "constant": bool(a.group(9)), "thread_local": bool(a.group(10)),
                        "maybe_live_out": bool(a.group(11)), "preallocated_temp": bool(a.group(12)), "values": []})
                    continue
                v = VALUE_RE.match(line)
                if v:
                    vid = int(v.group(1))
                    m["values"][vid] = {
                        "id": vid, "name": v.group(2), "index": v.group(3) or "{}", "phi": bool(v.group(4)),
                        "color": int(v.group(5)), "size": int(v.group(6)), "offset": int(v.group(7)),
                        "shape": v.group(8), "logical_size": byte_size(v.group(8)),
                        "allocation": m["allocations"][-1]["index"], "positions": [], "uses": [], "range": None}
                    m["allocations"][-1]["values"].append(vid)
                    continue
                t = TOTAL_RE.match(line)
                if t:
                    m["total"] = int(t.group(1))
                    continue
                b = BLOCK_RE.match(line)
                if b:
                    value = m["values"].get(int(b.group(1)))
                    continue
                if line == " positions:" or line == " uses:":
                    section = line.strip()
                    continue
                if line.startswith(" from instruction:"):
                    i = INSTR_RE.match(line)
                    if i:
                        meta = METADATA_RE.search(i.group(5))
                        src = SOURCE_RE.search(i.group(5))
                        m["instructions"].setdefault(i.group(1), {
                            "name": i.group(1), "shape": i.group(2), "opcode": i.group(3),
                            "operands": OPERAND_RE.findall(i.group(4)), "attributes": i.group(5),
                            "op_name": meta.group(1) if meta else None,
                            "source": (src.group(1), int(src.group(2))) if src else None, "time": -1})
                    continue
                if value is not None and section == "positions:":
                    p = POSITION_RE.match(line)
                    if p:
                        value["positions"].append((p.group(1), p.group(2) or "{}"))
                        continue
                if value is not None and section == "uses:":
                    u = USE_RE.match(line)
                    if u:
                        value["uses"].append((u.group(1), int(u.group(2)), u.group(3) or "{}"))
                        continue
                x = MAXT_RE.match(line)
                if x:
                    m["max_time"] = int(x.group(1))
                    value = None
                    continue
                s = SEQ_RE.match(line)
                if s:
                    m["sequence"].append(s.group(2))
                    continue
                r = RANGE_RE.match(line)
                if r:
                    m["ranges"][(r.group(1), r.group(2))] = (int(r.group(3)), int(r.group(4)))
                    continue
                pa = PEAK_AT_RE.match(line)
                if pa:
                    m["peak"] = int(pa.group(1))
                    continue
                pe = PEAK_RE.match(line)
                if pe and m["peak"] is not None:
                    m["peak_entries"].append((pe.group(1), pe.group(2), int(pe.group(3)), pe.group(4)))
    # Join: live ranges to values by (name, index), times to instructions.
    by_key = {(v["name"], v["index"]): v for v in m["values"].values()}
    for key, rng in m["ranges"].items():
        if key in by_key:
            by_key[key]["range"] = rng
    for t, name in enumerate(m["sequence"]):
        if name in m["instructions"]:
            m["instructions"][name]["time"] = t
    return m


def live_at(m, t):
    return [v for v in m["values"].values() if v["range"] and v["range"][0] <= t <= v["range"][1]]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    m = parse(argv[1])
    peak = m["peak"] if m["peak"] is not None else -1
    peak_bytes = sum(v["logical_size"] for v in live_at(m, peak)) if peak >= 0 else None
    claim = None
    if m["peak_entries"]:
        last = m["peak_entries"][-1]
        claim = int(last[3]) if last[3] else sum(e[2] for e in m["peak_entries"])
    print("allocations=%d values=%d instructions=%d total_bytes=%d allocation_sum=%d peak_time=%d peak_bytes=%s "
          "claimed_peak_bytes=%s" % (len(m["allocations"]), len(m["values"]), len(m["instructions"]),
                                     m["total"] or 0, sum(a["size"] for a in m["allocations"]), peak,
                                     peak_bytes, claim))
    if "--query" in argv:
        mid = max(m["max_time"], 0) // 2
        print("live at %d: %d values" % (mid, len(live_at(m, mid))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
