#!/usr/bin/env python3
"""tools/trace_view.py — a self-contained HTML view of a WEFT_TRACE file (util/trace.h), for a
quick look without Perfetto or chrome://tracing, and for the screenshot in docs/ (headless
Chromium renders the page: see README, "Seeing what ran").

The page embeds the events and draws them on a canvas: one row per track (queues first, then
threads, as the trace's thread_sort_index says), nested slices stacked under their parents, one
colour per category (commands, work-group chunks, compiles, profiling, fused runs), instant
events as markers, a time axis in milliseconds. No network, no libraries.

Usage: trace_view.py TRACE.json -o VIEW.html [--from NAME] [--span MS] [--title TEXT]
  --from NAME  start the view at the first complete event whose name starts with NAME
               (e.g. "fused" to skip the compiles before the first fused run)
  --span MS    show MS milliseconds from the start (default: to the last event)
Then e.g.: chromium --headless --screenshot=docs/trace-jacobi.png --window-size=1600,900 VIEW.html
"""
import argparse
import json

PAGE = r"""<!doctype html>
<html><head><meta charset="utf-8"><title>@TITLE@</title>
<style>body{margin:0;font:12px DejaVu Sans,sans-serif;background:#fff}
#head{padding:6px 10px;border-bottom:1px solid #ccc}#head b{font-size:14px}
.key{display:inline-block;width:12px;height:10px;margin:0 3px 0 12px;vertical-align:middle}</style></head>
<body><div id="head"><b>@TITLE@</b> <span id="info"></span><span id="legend"></span></div>
<canvas id="c"></canvas>
<script>
const T = @DATA@;
const CAT = {command:'#4e79a7','work-groups':'#59a14f',compile:'#f28e2b',profile:'#b07aa1',fusion:'#e15759'};
const LABEL = 160, ROW = 16, PAD = 6, W = window.innerWidth;
const t0 = T.start, t1 = T.end, sx = (W - LABEL - 20) / Math.max(t1 - t0, 1e-3);
const x = t => LABEL + (t - t0) * sx;
// rows: per track, slices stacked by nesting depth
const tracks = T.tracks.map(t => ({...t, depth: 0, slices: [], marks: []}));
const byTid = new Map(tracks.map(t => [t.tid, t]));
for (const e of T.events) {
  const tr = byTid.get(e.tid); if (!tr) continue;
  if (e.ph === 'i') { tr.marks.push(e); continue; }
  tr.slices.push(e);
}
for (const tr of tracks) {
  tr.slices.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const stack = [];
  for (const s of tr.slices) {
    while (stack.length && stack[stack.length - 1] <= s.ts + 1e-9) stack.pop();
    s.depth = stack.length; stack.push(s.ts + s.dur);
    tr.depth = Math.max(tr.depth, s.depth + 1);
  }
  tr.depth = Math.max(tr.depth, 1);
}
let y = 30; for (const tr of tracks) { tr.y = y; y += tr.depth * ROW + PAD; }
const c = document.getElementById('c'); c.width = W; c.height = y + 10;
const g = c.getContext('2d'); g.font = '11px DejaVu Sans, sans-serif'; g.textBaseline = 'middle';
// time axis
const span = t1 - t0, step = [0.01,0.02,0.05,0.1,0.2,0.5,1,2,5,10,20,50,100,200,500,1000].find(s => span / s <= 12) || 2000;
g.strokeStyle = '#ddd'; g.fillStyle = '#444';
for (let t = t0; t <= t1; t += step) {
  g.beginPath(); g.moveTo(x(t), 20); g.lineTo(x(t), y); g.stroke();
  g.fillText((t - t0).toFixed(step < 0.1 ? 2 : step < 1 ? 1 : 0) + ' ms', x(t) + 2, 12);
}
const shade = (hex, k) => { const n = parseInt(hex.slice(1), 16);
  const f = v => Math.max(0, Math.min(255, Math.round(v * k))).toString(16).padStart(2, '0');
  return '#' + f(n >> 16) + f(n >> 8 & 255) + f(n & 255); };
for (const tr of tracks) {
  g.fillStyle = '#f4f4f4'; g.fillRect(0, tr.y - 2, W, tr.depth * ROW + 4);
  g.fillStyle = '#000'; g.fillText(tr.name.slice(0, 24), 4, tr.y + ROW / 2);
  for (const s of tr.slices) {
    const a = Math.max(x(s.ts), LABEL), b = Math.min(x(s.ts + s.dur), W - 10);
    if (b < LABEL || a > W - 10) continue;
    const base = CAT[s.cat] || '#999', col = s.depth % 2 ? shade(base, 1.25) : base;
    const yy = tr.y + s.depth * ROW;
    g.fillStyle = col; g.fillRect(a, yy, Math.max(b - a, 1), ROW - 2);
    if (b - a > 30) { g.save(); g.beginPath(); g.rect(a, yy, b - a, ROW); g.clip();
      g.fillStyle = '#fff'; g.fillText(s.label, a + 3, yy + ROW / 2 - 1); g.restore(); }
  }
  for (const m of tr.marks) {
    const a = x(m.ts); if (a < LABEL || a > W - 10) continue;
    g.fillStyle = CAT[m.cat] || '#000'; g.beginPath();
    g.moveTo(a, tr.y); g.lineTo(a - 5, tr.y + 8); g.lineTo(a + 5, tr.y + 8); g.fill();
  }
}
document.getElementById('info').textContent = ' ' + T.info;
document.getElementById('legend').innerHTML = Object.entries(CAT).map(([k, v]) =>
  '<span class="key" style="background:' + v + '"></span>' + k).join('');
</script></body></html>
"""


def label(e):
    a = e.get('args', {})
    if e.get('cat') == 'fusion' and e.get('ph') == 'X':
        return 'fused %s K=%s, %s tiles' % (a.get('kernels', a.get('kernel')), a.get('K'), a.get('tiles'))
    if e.get('cat') == 'work-groups':
        return '%s [%s+%s]' % (e['name'], a.get('first_group'), a.get('groups'))
    if e.get('cat') == 'command' and a.get('bytes'):
        return '%s %d B' % (e['name'], a['bytes'])
    return e['name']


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace')
    ap.add_argument('-o', '--output', required=True)
    ap.add_argument('--from', dest='start', default=None)
    ap.add_argument('--span', type=float, default=None)
    ap.add_argument('--title', default='Weft trace')
    a = ap.parse_args()
    doc = json.load(open(a.trace))
    ev = doc['traceEvents']
    names = {e['tid']: e['args']['name'] for e in ev if e.get('ph') == 'M' and e['name'] == 'thread_name'}
    order = {e['tid']: e['args']['sort_index'] for e in ev if e.get('ph') == 'M' and e['name'] == 'thread_sort_index'}
    shown = [e for e in ev if e.get('ph') in ('X', 'i')]
    if not shown:
        raise SystemExit('no events to show')
    start = min(e['ts'] for e in shown)
    if a.start:
        firsts = [e['ts'] for e in shown if e.get('ph') == 'X' and e['name'].startswith(a.start)]
        if not firsts:
            raise SystemExit('no complete event named %s...' % a.start)
        start = min(firsts)
    end = max(e['ts'] + e.get('dur', 0) for e in shown)
    if a.span:
        end = min(end, start + a.span * 1000)
    events = [{'tid': e['tid'], 'ph': e['ph'], 'cat': e.get('cat', ''), 'ts': e['ts'] / 1000,
               'dur': e.get('dur', 0) / 1000, 'label': label(e)}
              for e in shown if e['ts'] + e.get('dur', 0) >= start and e['ts'] <= end]
    tids = sorted({e['tid'] for e in events}, key=lambda t: (order.get(t, 10**6), names.get(t, ''), t))
    od = doc.get('otherData', {})
    info = '%s: %s events, %s dropped; showing %.2f ms' % (od.get('producer', ''), od.get('events_recorded'),
                                                           od.get('events_dropped'), (end - start) / 1000)
    data = {'start': start / 1000, 'end': end / 1000, 'info': info,
            'tracks': [{'tid': t, 'name': names.get(t, str(t))} for t in tids], 'events': events}
    with open(a.output, 'w') as f:
        title = a.title.replace('&', '&amp;').replace('<', '&lt;')
        f.write(PAGE.replace('@TITLE@', title).replace('@DATA@', json.dumps(data).replace('</', '<\\/')))


if __name__ == '__main__':
    main()
