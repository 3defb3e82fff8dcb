// top-at-peak: a short markdown report of what is live at the peak, to paste into a bug report.
//   bufq -f scripts/reports/top-at-peak.js DUMP > report.md
// TOP_N (a global set before running, e.g. `js var TOP_N = 20`) changes how many values are listed.
(function () {
  const m = bufq.module;
  if (m === null) throw new Error('load a dump first');
  const n = typeof TOP_N === 'number' ? TOP_N : 10;

  const human = bytes => bytes === null ? '' : bufq.format.bytes(bytes);
  const cell = s => s === null || s === undefined ? '' : String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

  print(`# Memory at the peak of ${m.name} (${m.backend})`);
  print('');
  if (m.peak === null) {
    print('This dump has no live ranges, so it has no peak.');
    return;
  }
  const live = bufq.query('values where live at peak show logical_size');
  const total = live.reduce((s, r) => s + r.logical_size, 0);
  print(`Peak at step ${m.peak.time} (of ${m.steps.length} steps): ${human(m.peak.bytes)} occupied, `
      + `${human(m.peak.live_bytes)} logical in ${live.length} values.`);
  if (m.peak.claimed_time !== null && m.peak.claimed_time !== m.peak.time) {
    print(`(The dump labels step ${m.peak.claimed_time} its peak; see \`peak\` for why they differ.)`);
  }
  print('');
  const top = bufq.query(`values where live at peak order by logical_size desc, id limit ${n}`
      + ' show label, logical_size, size, shape, op_name, source_file, source_line');
  print('| value | logical | assigned | share | shape | op_name | source |');
  print('|---|---:|---:|---:|---|---|---|');
  for (const r of top) {
    const share = total > 0 ? (100 * r.logical_size / total).toFixed(1) + '%' : '';
    const src = r.source_file === null ? '' : `${r.source_file}:${r.source_line === null ? '?' : r.source_line}`;
    print(`| ${cell(r.label)} | ${human(r.logical_size)} | ${human(r.size)} | ${share} | \`${cell(r.shape)}\` | ${cell(r.op_name)} | ${cell(src)} |`);
  }
  if (live.length > top.length) print(`\n${live.length - top.length} smaller values not listed.`);
})();
