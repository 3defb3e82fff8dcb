// no-overlap: the built-in 'overlap' check written in JavaScript, as a model for house checks.
// Two values of one allocation must not hold common bytes while both are live. A hand-over, where
// an instruction's output takes its dying operand's bytes so the two live ranges touch at exactly
// one step, is how XLA reuses memory and is not reported. Values without a live range are skipped.
//   run scripts/checks/no-overlap.js
//   check
bufq.check('no-overlap', function (module, report) {
  const byAllocation = new Map();
  for (const v of module.values) {
    if (v.start === null || v.size <= 0 || v.end < v.start) continue;
    const item = { row: v, start: v.start, end: v.end, offset: v.offset, size: v.size };
    if (!byAllocation.has(v.allocation)) byAllocation.set(v.allocation, []);
    byAllocation.get(v.allocation).push(item);
  }
  const conflict = (a, b) => {
    const from = Math.max(a.start, b.start), to = Math.min(a.end, b.end);
    if (from > to) return false;
    return !(from === to && (a.end === b.start || b.end === a.start));
  };
  for (const [allocation, items] of byAllocation) {
    items.sort((a, b) => a.start - b.start || a.offset - b.offset);
    let active = [];
    for (const y of items) {
      active = active.filter(x => x.end >= y.start);
      for (const x of active) {
        if (x.offset >= y.offset + y.size || y.offset >= x.offset + x.size) continue;
        if (!conflict(x, y)) continue;
        report.error(y.row, `bytes [${y.offset}, ${y.offset + y.size}) live ${y.start}-${y.end} overlap `
            + `${x.row.label} bytes [${x.offset}, ${x.offset + x.size}) live ${x.start}-${x.end} in allocation ${allocation}`);
      }
      active.push(y);
    }
  }
});
