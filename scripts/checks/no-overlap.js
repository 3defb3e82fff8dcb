// no-overlap: the built-in 'overlap' check written in JavaScript, as a model for house checks.
// Two values of one allocation must not hold common bytes while both are live. A hand-over, where
// an instruction's output takes its dying operand's bytes so the two live ranges touch at exactly
// one step (the operand, born earlier, ends where the output starts), is how XLA reuses memory and
// is not reported; two values born at the same step in the same bytes are, unless the instruction
// writes both in place of one operand (output_to_operand_aliasing={{2}: (1, {}), {3}: (1, {})} in its
// attributes: one buffer, as an XLA:TPU asynchronous collective fusion hands back). Values without a
// live range are skipped.
//   run scripts/checks/no-overlap.js
//   check
bufq.check('no-overlap', function (module, report) {
  const MAX_FINDINGS = 100;
  const byAllocation = new Map();
  for (const v of module.values) {
    if (v.start === null || v.size <= 0 || v.end < v.start) continue;
    const item = { row: v, name: v.name, label: v.label, start: v.start, end: v.end, offset: v.offset, size: v.size };
    if (!byAllocation.has(v.allocation)) byAllocation.set(v.allocation, []);
    byAllocation.get(v.allocation).push(item);
  }
  const range = x => `${x.start}-${x.end}`;
  // dying ends at the step born starts, was born before it, by another instruction.
  const handsOver = (dying, born) => dying.end === born.start && dying.start < born.start && dying.name !== born.name;
  // output index -> 'operand{index}' of an instruction's output_to_operand_aliasing, read once per name
  const aliasing = new Map();
  const aliasesOf = name => {
    if (!aliasing.has(name)) {
      const ins = module.instruction(name);
      const text = ins === null || ins.attributes === null ? '' : ins.attributes;
      const out = new Map();
      const at = text.indexOf('output_to_operand_aliasing={');
      if (at >= 0) {
        const re = /\{([0-9, ]*)\}: \(([0-9]+), \{([0-9, ]*)\}\)/y;
        re.lastIndex = at + 'output_to_operand_aliasing={'.length;
        let m;
        while ((m = re.exec(text)) !== null) {
          out.set('{' + m[1].replace(/ /g, '') + '}', m[2] + '{' + m[3].replace(/ /g, '') + '}');
          while (text[re.lastIndex] === ',' || text[re.lastIndex] === ' ') re.lastIndex++;
        }
      }
      aliasing.set(name, out);
    }
    return aliasing.get(name);
  };
  const sameOperand = (x, y) => {
    if (x.name !== y.name) return false;
    const a = aliasesOf(x.name), o = a.get(x.row.index);
    return o !== undefined && o === a.get(y.row.index);
  };
  let found = 0, handOvers = 0, aliased = 0;
  for (const [allocation, items] of byAllocation) {
    items.sort((a, b) => a.start - b.start || a.offset - b.offset);
    let active = [];
    for (const y of items) {
      active = active.filter(x => x.end >= y.start);
      for (const x of active) {
        if (x.offset >= y.offset + y.size || y.offset >= x.offset + x.size) continue;
        const from = Math.max(x.start, y.start), to = Math.min(x.end, y.end);
        if (from > to) continue;
        if (from === to && (handsOver(x, y) || handsOver(y, x))) { handOvers++; continue; }
        if (sameOperand(x, y)) { aliased++; continue; }
        if (++found > MAX_FINDINGS) continue;
        report.error(y.row, `bytes [${y.offset}, ${y.offset + y.size}) live ${range(y)} overlap ${x.label} `
            + `bytes [${x.offset}, ${x.offset + x.size}) live ${range(x)} in allocation ${allocation} `
            + `at steps ${from === to ? from : from + '-' + to}`);
      }
      active.push(y);
    }
  }
  if (found > MAX_FINDINGS) report.error(module.handle, `${found - MAX_FINDINGS} more overlapping pairs not listed`);
  if (aliased > 0) {
    report.info(module.handle, `${aliased} pair${aliased === 1 ? '' : 's'} of outputs of one instruction share bytes`
        + ' because it writes both in place of one operand (output_to_operand_aliasing: one buffer, not overlap)');
  }
  if (handOvers > 0) {
    report.info(module.handle, `${handOvers} hand-over${handOvers === 1 ? '' : 's'} (a value taking bytes of one `
        + 'that dies at the step it is born: ranges touch at one step) are reuse, not overlap');
  }
});
