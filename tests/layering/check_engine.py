#!/usr/bin/env python3
"""tests/layering/check_engine.py — the engine (src/exec/, DESIGN.md section 2) never calls back
into the OpenCL API layer (src/runtime/).

It takes a self-contained launch description from the runtime (exec/launch.h) and tells the
runtime what it must through callbacks the runtime implements (weft_kernel_ops) or return
values. This test fails, naming the file and line or symbol, when that stops being true:

  - a file under src/exec/ includes a header of src/runtime/ (they declare the runtime's
    objects and, through CL/cl.h, every cl* entry point) or CL/cl.h itself;
  - a file under src/exec/ calls a cl* function (an identifier cl[A-Z]... followed by '(',
    outside comments and string literals);
  - with --objects DIR (the weft_core target's object folder): an object file of src/exec/
    leaves a symbol undefined that an object file of src/runtime/ defines, or one named
    cl[A-Z]... (what the linker would resolve into the API layer, macros and all).

Usage: check_engine.py --source SRC_DIR [--objects OBJ_DIR] [--nm NM]
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
CALL = re.compile(r'\bcl[A-Z]\w*\s*\(')
FORBIDDEN_SYSTEM = ('CL/cl.h', 'CL/cl_icd.h', 'CL/cl_ext.h', 'CL/opencl.h')


def strip_code(text):
    """The text with comments and string/character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + ' ' * (j - i - 2) + c if j - i >= 2 else c)
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def engine_files(src):
    for root, _, names in os.walk(os.path.join(src, 'exec')):
        for name in sorted(names):
            if name.endswith(('.c', '.h')):
                yield os.path.join(root, name)


def check_sources(src):
    problems = []
    for path in engine_files(src):
        rel = os.path.relpath(path, src)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        for no, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            name = m.group(2)
            if name.startswith('runtime/'):
                problems.append(f'src/{rel}:{no}: includes "{name}" (the API layer)')
            elif name in FORBIDDEN_SYSTEM:
                problems.append(f'src/{rel}:{no}: includes <{name}> (declares the cl* entry points)')
        code = strip_code(text)
        for no, line in enumerate(code.splitlines(), 1):
            for m in CALL.finditer(line):
                problems.append(f'src/{rel}:{no}: calls {m.group(0).rstrip("( ")} (a cl* entry point)')
    return problems


def symbols(nm, path, undefined):
    flag = ['--undefined-only'] if undefined else ['--defined-only', '--extern-only']
    out = subprocess.run([nm, '-P'] + flag + [path], check=True, capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def objects_under(objdir, src, folder):
    """The object files of the sources under src/<folder> (X.c -> X.c.o); objects left behind
    by sources that were moved or removed since do not count."""
    for root, _, names in os.walk(os.path.join(objdir, folder)):
        for name in sorted(names):
            path = os.path.join(root, name)
            if name.endswith('.c.o') and os.path.exists(os.path.join(src, os.path.relpath(path, objdir)[:-2])):
                yield path


def check_objects(objdir, src, nm):
    exec_objs = list(objects_under(objdir, src, 'exec'))
    runtime_objs = list(objects_under(objdir, src, 'runtime'))
    if not exec_objs or not runtime_objs:
        return [f'{objdir}: no object files of src/exec/ or src/runtime/ (is weft_core built?)']
    runtime_defined = {}
    for o in runtime_objs:
        for s in symbols(nm, o, False):
            runtime_defined[s] = os.path.relpath(o, objdir)
    problems = []
    for o in exec_objs:
        rel = os.path.relpath(o, objdir)
        for s in sorted(symbols(nm, o, True)):
            if s in runtime_defined:
                problems.append(f'{rel}: uses {s}, defined by {runtime_defined[s]} (the API layer)')
            elif re.match(r'cl[A-Z]', s):
                problems.append(f'{rel}: uses {s} (a cl* entry point)')
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source', required=True, help='the src/ folder')
    ap.add_argument('--objects', help="weft_core's object folder for src/ (CMakeFiles/weft_core.dir/src)")
    ap.add_argument('--nm', default='nm')
    args = ap.parse_args()
    problems = check_sources(args.source)
    checked = 'sources'
    if args.objects:
        problems += check_objects(args.objects, args.source, args.nm)
        checked += ' and objects'
    for p in problems:
        print(p)
    if problems:
        print(f'FAIL: {len(problems)} place(s) where the engine (src/exec/) reaches into the API layer')
        return 1
    print(f'ok: src/exec/ {checked} reach no cl* entry point and nothing of src/runtime/')
    return 0


if __name__ == '__main__':
    sys.exit(main())
