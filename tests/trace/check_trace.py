#!/usr/bin/env python3
"""tests/trace/check_trace.py — runs tests/trace/trace_chain.c under WEFT_TRACE or WEFT_REPORT
(util/trace.h, exec/report.h) and checks what it wrote: results, never timings.

Cases (--case):
  events   WEFT_TRACE=FILE: the file is JSON in the trace event format and holds a command slice of
           each kind the program enqueued (jacobi2d launches, a ReadBuffer and a WriteBuffer with
           their byte counts) on a queue's named track, with its enqueue-to-end async pair; work-group
           chunk slices of the kernels on named thread tracks; JIT compile slices naming kernel and
           variant; the fused runs of the Jacobi chain with K=5 and their tiles (WEFT_FUSE_DEPTH=5);
           profiling slices of `diverge` and the decision; no event dropped.
  report   WEFT_REPORT=FILE: one line per kernel with the right launch counts, the fused chain's
           K, the reason scale_local is not fusable, shares that add up to 100 %, and the totals.
  dropped  WEFT_TRACE_EVENTS=64: the trace holds exactly 64 events' worth, counts the dropped
           ones in otherData and says so in a process label.
  flush    WEFT_TRACE_FLUSH=finish and a program that leaves with _exit right after clFinish: the
           trace written at clFinish is complete JSON with the first chain in it.
Each case runs with a fresh WEFT_CACHE_DIR, so that variants are compiled (not loaded) and the
profiling pair is undecided.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

CHAIN_LEN, CHAIN_REPS, DIVERGE_LAUNCHES, LOCAL_LAUNCHES = 10, 3, 4, 3
GRID_BYTES = 256 * 128 * 4


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def run(program, env_extra, args=()):
    tmp = tempfile.mkdtemp(prefix='weft-trace-')
    env = dict(os.environ)
    env['WEFT_CACHE_DIR'] = os.path.join(tmp, 'cache')
    for k in ('WEFT_TRACE', 'WEFT_REPORT', 'WEFT_TRACE_EVENTS', 'WEFT_TRACE_FLUSH', 'WEFT_FUSE_DEPTH',
              'WEFT_FUSE_TILE', 'WEFT_VARIANT', 'WEFT_PROFILE'):
        env.pop(k, None)
    env.update({k: v.replace('@TMP@', tmp) for k, v in env_extra.items()})
    p = subprocess.run([program, *args], env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0 or (not args and 'ok' not in p.stdout):
        fail('trace_chain exited %d\nstdout: %s\nstderr: %s' % (p.returncode, p.stdout, p.stderr))
    return tmp, p


def load(path):
    if not os.path.exists(path):
        fail('no trace at ' + path)
    with open(path) as f:
        try:
            doc = json.load(f)
        except json.JSONDecodeError as e:
            fail('the trace is not JSON: %s' % e)
    if not isinstance(doc.get('traceEvents'), list):
        fail('no traceEvents list')
    return doc


def track_names(events):
    return {e['tid']: e['args']['name'] for e in events if e.get('ph') == 'M' and e['name'] == 'thread_name'}


def check_events(program):
    tmp, _ = run(program, {'WEFT_TRACE': '@TMP@/trace.json', 'WEFT_FUSE_DEPTH': '5'})
    doc = load(os.path.join(tmp, 'trace.json'))
    ev = doc['traceEvents']
    names = track_names(ev)
    if doc['otherData'].get('events_dropped') != 0:
        fail('events were dropped: %s' % doc['otherData'])
    for e in ev:
        if e.get('ph') in ('X', 'i', 'b', 'e') and e['tid'] not in names:
            fail('event %s is on track %s, which has no thread_name' % (e['name'], e['tid']))
        if e.get('ph') == 'X' and (e['dur'] < 0 or e['ts'] < 0):
            fail('negative time in %s' % e)

    def xs(cat):
        return [e for e in ev if e.get('ph') == 'X' and e.get('cat') == cat]

    commands = xs('command')
    launches = [e for e in commands if e['args']['command'] == 'NDRangeKernel']
    count = lambda n: sum(1 for e in launches if e['name'] == n)
    expect = {'jacobi2d': CHAIN_LEN * CHAIN_REPS, 'diverge': DIVERGE_LAUNCHES, 'scale_local': LOCAL_LAUNCHES}
    for k, n in expect.items():
        if count(k) != n:
            fail('%d command slices of %s, expected %d' % (count(k), k, n))
    for c in commands:
        if not names[c['tid']].startswith('queue '):
            fail('command %s is on track %r, not a queue' % (c['name'], names[c['tid']]))
    reads = [e for e in commands if e['name'] == 'ReadBuffer' and e['args'].get('bytes') == GRID_BYTES]
    writes = [e for e in commands if e['name'] == 'WriteBuffer' and e['args'].get('bytes') == GRID_BYTES]
    if len(reads) != CHAIN_REPS or len(writes) != CHAIN_REPS:
        fail('%d ReadBuffer and %d WriteBuffer slices of %d bytes, expected %d each' %
             (len(reads), len(writes), GRID_BYTES, CHAIN_REPS))
    begins = [e for e in ev if e.get('ph') == 'b' and e.get('cat') == 'enqueue']
    ends = {e['id'] for e in ev if e.get('ph') == 'e' and e.get('cat') == 'enqueue'}
    if len(begins) != len(commands) or any(b['id'] not in ends for b in begins):
        fail('%d enqueue-to-end pairs for %d commands' % (len(begins), len(commands)))

    chunks = xs('work-groups')
    for k in ('diverge', 'scale_local', 'jacobi2d'):
        if not any(c['name'] == k and c['args']['groups'] >= 1 for c in chunks):
            fail('no work-group chunk slice of ' + k)
    for c in chunks:
        if names[c['tid']].startswith('queue '):
            fail('a chunk slice on a queue track')
    # every group of an unfused launch ran once: a scale_local launch has 4096/64 groups
    groups = sum(c['args']['groups'] for c in chunks if c['name'] == 'scale_local')
    if groups != LOCAL_LAUNCHES * 4096 // 64:
        fail('scale_local chunk slices cover %d groups, expected %d' % (groups, LOCAL_LAUNCHES * 64))

    compiles = xs('compile')
    for k in expect:
        if not any(c['args']['kernel'] == k and c['args']['variant'] and c['args']['source'] == 'jit'
                   for c in compiles):
            fail('no JIT compile slice of %s (compiles: %s)' % (k, [c['name'] for c in compiles]))

    # WEFT_FUSE_DEPTH=5 fuses the held launches 5 at a time; fewer when the queue ran what it held
    # before the chain was complete (2 ms after an enqueue: a loaded machine may stall the program)
    fused = xs('fusion')
    if not fused or sum(f['args']['K'] for f in fused) > CHAIN_REPS * CHAIN_LEN:
        fail('%d fused runs of %d launches in all, expected at least one and at most %d launches' %
             (len(fused), sum(f['args']['K'] for f in fused), CHAIN_REPS * CHAIN_LEN))
    for f in fused:
        a = f['args']
        if a['kernel'] != 'jacobi2d' or not 2 <= a['K'] <= 5 or a['tiles'] < 1 or a['tile_rows'] < 1:
            fail('fused run %s' % f)

    profile = xs('profile')
    if not any(p['args']['kernel'] == 'diverge' and p['args']['groups'] >= 1 for p in profile):
        fail('no profiling slice of diverge')
    variants = {p['args']['variant'] for p in profile}
    if len(variants) != 2 or '?' in variants:
        fail('profiling slices of variants %s, expected two named ones' % variants)
    chose = [e for e in ev if e.get('ph') == 'i' and e.get('cat') == 'profile']
    if not chose or chose[0]['args']['chosen'] not in variants:
        fail('no decision naming a profiled variant: %s' % chose)
    print('events: %d commands, %d chunks, %d compiles, %d fused runs, %d profiling slices; variants %s' %
          (len(commands), len(chunks), len(compiles), len(fused), len(profile), sorted(variants)))


def check_report(program):
    tmp, _ = run(program, {'WEFT_REPORT': '@TMP@/report.txt', 'WEFT_FUSE_DEPTH': '5'})
    path = os.path.join(tmp, 'report.txt')
    if not os.path.exists(path):
        fail('no report at ' + path)
    text = open(path).read()
    print(text, end='')
    lines = {}
    for line in text.splitlines():
        m = re.match(r'weft report: kernel (\w+): (\d+) launches, ([\d.]+) ms total, ([\d.]+) us mean, '
                     r'([\d.]+)% of device time; variants: (.+); vectorized: (.+); fused: (.+)$', line)
        if m:
            lines[m.group(1)] = m
        elif not line.startswith('weft report: total:'):
            fail('a line of an unknown form: ' + line)
    expect = {'jacobi2d': CHAIN_LEN * CHAIN_REPS, 'diverge': DIVERGE_LAUNCHES, 'scale_local': LOCAL_LAUNCHES}
    if set(lines) != set(expect):
        fail('kernels %s, expected %s' % (sorted(lines), sorted(expect)))
    for k, n in expect.items():
        if int(lines[k].group(2)) != n:
            fail('%s: %s launches, expected %d' % (k, lines[k].group(2), n))
    share = sum(float(m.group(5)) for m in lines.values())
    if abs(share - 100.0) > 0.5:
        fail('shares add up to %.1f%%' % share)
    # as in check_events: K=5 unless the queue ran a chain before it was complete
    m = re.match(r'(\d+) of (\d+) launches in (\d+) runs \(K=(\d+)(?:-(\d+))?, (\d+) tiles of (\d+) rows',
                 lines['jacobi2d'].group(8))
    if not m:
        fail('jacobi2d fused: %r' % lines['jacobi2d'].group(8))
    f, n, runs, kmin = (int(m.group(i)) for i in range(1, 5))
    kmax = int(m.group(5) or kmin)
    if (n != CHAIN_LEN * CHAIN_REPS or not 1 <= runs or not 2 * runs <= f <= 5 * runs or f > n or
            not 2 <= kmin <= kmax <= 5 or int(m.group(6)) < 1 or int(m.group(7)) < 1):
        fail('jacobi2d fused: %r' % lines['jacobi2d'].group(8))
    if not lines['scale_local'].group(8).startswith('no (it observes its work-group'):
        fail('scale_local fused: %r' % lines['scale_local'].group(8))
    if 'diverge' not in lines or not lines['diverge'].group(8).startswith('no ('):
        fail('diverge fused: %r' % lines['diverge'].group(8))
    for k, m in lines.items():
        if not re.match(r'(yes \(|no \(|unknown)', m.group(7)):
            fail('%s vectorized: %r' % (k, m.group(7)))
        if '?' in m.group(6):
            fail('%s: an unnamed variant: %r' % (k, m.group(6)))
    if 'yes (' not in lines['jacobi2d'].group(7) and 'no (' not in lines['jacobi2d'].group(7):
        fail('jacobi2d vectorized: %r' % lines['jacobi2d'].group(7))
    total = re.search(r'weft report: total: (\d+) kernels, (\d+) launches', text)
    if not total or int(total.group(1)) != 3 or int(total.group(2)) != sum(expect.values()):
        fail('the totals line: %r' % (total.group(0) if total else None))


def check_dropped(program):
    tmp, _ = run(program, {'WEFT_TRACE': '@TMP@/trace.json', 'WEFT_TRACE_EVENTS': '64'})
    doc = load(os.path.join(tmp, 'trace.json'))
    od = doc['otherData']
    if od.get('events_capacity') != 64 or od.get('events_recorded') != 64 or not od.get('events_dropped', 0) > 0:
        fail('otherData %s: expected 64 recorded of capacity 64 and some dropped' % od)
    labels = [e for e in doc['traceEvents'] if e.get('ph') == 'M' and e['name'] == 'process_labels']
    if not labels or ('%d events dropped' % od['events_dropped']) not in labels[0]['args']['labels']:
        fail('no process label saying how many events were dropped: %s' % labels)
    kept = [e for e in doc['traceEvents'] if e.get('ph') in ('X', 'i')]
    if not 0 < len(kept) <= 64:
        fail('%d events written from a buffer of 64' % len(kept))
    print('dropped: %d recorded, %d dropped' % (od['events_recorded'], od['events_dropped']))


def check_flush(program):
    tmp, _ = run(program, {'WEFT_TRACE': '@TMP@/trace.json', 'WEFT_TRACE_FLUSH': 'finish'}, ['--exit-after-finish'])
    doc = load(os.path.join(tmp, 'trace.json'))
    cmds = [e for e in doc['traceEvents'] if e.get('ph') == 'X' and e.get('cat') == 'command']
    n = sum(1 for e in cmds if e['name'] == 'jacobi2d')
    if n != CHAIN_LEN or not any(e['name'] == 'ReadBuffer' for e in cmds):
        fail('the trace written at clFinish has %d jacobi2d launches (expected %d) and commands %s' %
             (n, CHAIN_LEN, sorted({e['name'] for e in cmds})))
    if os.path.exists(os.path.join(tmp, 'trace.json.tmp')):
        fail('trace.json.tmp left behind')
    print('flush: %d commands in the trace written at clFinish' % len(cmds))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--program', required=True)
    ap.add_argument('--case', required=True, choices=['events', 'report', 'dropped', 'flush'])
    a = ap.parse_args()
    {'events': check_events, 'report': check_report, 'dropped': check_dropped, 'flush': check_flush}[a.case](a.program)
    print('PASS')


if __name__ == '__main__':
    main()
