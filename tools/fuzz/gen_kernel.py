#!/usr/bin/python3
"""Weft's random OpenCL C kernel generator for differential testing (tools/fuzz/run.py).

    gen_kernel.py SEED [-o FILE.cl]       print (or write) the kernel of SEED

The same seed gives the same kernel, NDRange and inputs on every machine (Python's
random.Random is portable). A kernel is

    kernel void k(global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3
                  [, local uint *dl])

and computes one result per work-item, out[linear global id - offset], plus one per work-group
(out[items + linear group id]) when it reduces through local memory. Its first lines are a
comment that records the seed, the NDRange and the arguments as JSON (`// weft-fuzz: {...}`), so a
saved or hand-reduced kernel runs again with `run.py --kernel FILE.cl`.

What a kernel may contain, aimed at what Weft's variants (schedules, vectorized packets, scalar
work-item loops, privatization across barriers, wide ids) can get wrong:
  - unsigned arithmetic that wraps, shifts by counts masked below 32, division and remainder
    guarded against zero (`b != 0u ? a / b : a`), 64-bit products, signed values only through
    as_int and arithmetic shifts (no signed overflow, no INT_MIN / -1);
  - builtins: select, bitselect, min, max, clamp (lo <= hi by construction), rotate, popcount,
    clz, ctz, mul_hi, mad_hi, mad24/mul24 (operands masked to 24 bits), hadd, rhadd, abs_diff,
    add_sat, sub_sat, abs, upsample;
  - nested loops with uniform trip counts (kernel arguments, constants, the group id) and with
    per-work-item (divergent) trip counts, break and continue on data, while and do-while loops,
    switch, if/else chains on the local id, the global id and data;
  - private arrays indexed by data (indices reduced modulo the array size), uint2/uint4 vectors
    with a component chosen by data (through vstore/vload to a private array), vector select,
    any/all;
  - __local arrays (static, sometimes a local kernel argument) written by each work-item at its
    own slots, a barrier, read at any slot, a barrier; local atomics whose result does not depend
    on their order (xor/or/add/min/max, the returned value unused); a tree reduction per group;
    barriers only in uniform control flow: at top level, under conditions on kernel arguments or
    the group id, in loops whose trip count and breaks are uniform;
  - sometimes work-group functions (reduce/scan add, min, max, broadcast, all/any; the kernel is
    then built with -cl-std=CL3.0, so pocl 1.2 only reports a build failure);
  - sometimes float arithmetic, exactly: only + - * and fma, which OpenCL requires correctly
    rounded, on integer-valued operands (convert_float of at most 16 bits), so no denormals
    appear; `#pragma OPENCL FP_CONTRACT OFF` forbids contraction; results go back to uint through
    as_uint with NaN canonicalized or through convert_uint_sat. Division and sqrt (2.5 and 3 ulp
    in OpenCL) and min/max of signed zeros are never used, so outputs compare bit for bit;
  - 2-D NDRanges (a quarter of the kernels), a global offset sometimes (also past 2^31 and past
    2^32, where variants need wide ids), reqd_work_group_size sometimes;
  - after the body, none to two loops in which each work-item reads a row of `in` of its own
    (int indices, rows of 1 to 40 elements, lengths the same for all or per work-item, sometimes
    under a condition on data or ids), which Weft unrolls and vectorizes as row groups; drawn
    from a second generator, so that everything before them is what earlier versions of this
    file generated for the same seed.

NDRanges have at least 32 work-groups (Weft profiles variants from 16 groups); local sizes
range over 1..256, many not multiples of 8 or 16 (7, 13, 33, 100, ...).
"""
import argparse
import json
import random
import sys

MASKS = [0x1, 0x3, 0x7, 0xf, 0x1f, 0xff, 0xffff, 0x7fffffff, 0xffffffff]
INTERESTING = [0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, 127, 128, 255, 256, 1000,
               0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
               0xffffffff, 0x55555555, 0xaaaaaaaa, 0x01000193, 0x9e3779b9]
LOCAL_1D = [1, 2, 3, 5, 7, 8, 12, 13, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 96, 100, 128, 129,
            160, 192, 200, 255, 256]
LOCAL_2D_X = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 32, 33]
LOCAL_2D_Y = [1, 2, 3, 4, 5, 7, 8, 16]
N_IN = [64, 100, 256, 777, 1024, 4096]
OFFSETS = [0, 0, 0, 0, 0, 0, 0, 17, 1000, (1 << 31) - 4000, (1 << 32) + 12345]
MAX_ITEMS = 24576


def hexc(v):
    return "0x%xu" % v if v > 9 else "%du" % v


class Loop:
    def __init__(self, var, uniform, barriers, div_break):
        self.var = var              # counter name (None for while loops)
        self.uniform = uniform      # trip count the same for every work-item of a group
        self.barriers = barriers    # body may hold barriers: uniform control flow inside
        self.div_break = div_break  # break/continue may depend on per-work-item data


class Gen:
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        r = self.r
        self.dims = 2 if r.random() < 0.25 else 1
        if self.dims == 1:
            lx = r.choice(LOCAL_1D)
            self.local = [lx, 1]
            lo = 32
            hi = max(lo, MAX_ITEMS // lx)
            self.groups = [r.randint(lo, min(hi, lo + r.choice([0, 8, 40, 100, 400]))), 1]
        else:
            while True:
                lx, ly = r.choice(LOCAL_2D_X), r.choice(LOCAL_2D_Y)
                if lx * ly <= 256:
                    break
            self.local = [lx, ly]
            gx = r.randint(2, 12)
            gy = max(r.randint(2, 12), -(-32 // gx))
            while gx * gy * lx * ly > MAX_ITEMS and gy > 1 and gx * (gy - 1) >= 32:
                gy -= 1
            self.groups = [gx, gy]
        self.ls = self.local[0] * self.local[1]
        self.ngroups = self.groups[0] * self.groups[1]
        self.items = self.ls * self.ngroups
        self.glob = [self.local[0] * self.groups[0], self.local[1] * self.groups[1]]
        self.offset = [r.choice(OFFSETS), 0]
        if self.dims == 2 and r.random() < 0.2:
            self.offset[1] = r.choice([3, 1 << 20])
        self.n_in = r.choice(N_IN)
        self.params = [r.randint(0, 6), r.randint(1, 7), r.randint(0, 9), r.getrandbits(32)]
        self.data_seed = r.getrandbits(32)
        # features
        self.use_local = r.random() < 0.6
        self.use_dyn_local = self.use_local and r.random() < 0.3
        self.use_group_out = r.random() < 0.35
        self.use_wg = r.random() < 0.12
        self.use_float = r.random() < 0.3
        self.use_vec = r.random() < 0.5
        self.use_arrays = r.random() < 0.6
        self.use_atomics = self.use_local and r.random() < 0.3
        self.use_reqd = r.random() < 0.2
        self.nvars = r.randint(3, 7)
        self.vars = ["v%d" % i for i in range(self.nvars)]
        self.arrays = []   # (name, size)
        if self.use_arrays:
            for i in range(r.randint(1, 2)):
                self.arrays.append(("a%d" % i, r.choice([2, 3, 4, 5, 8, 13, 16, 32])))
        self.locals = []   # (name, slots per work-item)
        if self.use_local:
            for i in range(r.randint(1, 2)):
                self.locals.append(("lm%d" % i, r.choice([1, 1, 2, 3])))
        if self.use_dyn_local:
            self.locals.append(("dl", 1))
        self.vecs = []
        if self.use_vec:
            self.vecs = [("w0", 4)] + ([("w1", 2)] if r.random() < 0.5 else [])
        self.floats = ["f0", "f1"] if self.use_float else []
        self.loops = []    # stack of Loop
        self.loop_id = 0
        self.budget = r.randint(8, 32)   # statements left
        self.mult_limit = 400              # product of enclosing trip counts
        self.mult = 1
        self.ind = 1
        self.lines = []
        self.used_wg = False

    # ---- expressions -------------------------------------------------------------------
    def const(self):
        r = self.r
        x = r.random()
        if x < 0.6:
            return hexc(r.choice(INTERESTING))
        if x < 0.8:
            return hexc(r.randint(0, 40))
        return hexc(r.getrandbits(32))

    def lin_ids(self):
        return ["lid", "gid", "grp", "lx", "ly"] if self.dims == 2 else ["lid", "gid", "grp"]

    def leaf(self):
        r = self.r
        c = r.random()
        if c < 0.4:
            return r.choice(self.vars)
        if c < 0.5:
            return self.const()
        if c < 0.62:
            return r.choice(self.lin_ids())
        if c < 0.68:
            return r.choice(["p0", "p1", "p2", "p3", "n_in"])
        if c < 0.78 and self.loops:
            lp = r.choice(self.loops)
            if lp.var:
                return lp.var
        if c < 0.86 and self.arrays:
            name, n = r.choice(self.arrays)
            return "%s[(%s) %% %du]" % (name, r.choice(self.vars), n)
        if c < 0.93:
            return "in[(%s) %% n_in]" % r.choice(self.vars + self.lin_ids())
        if self.vecs:
            name, n = r.choice(self.vecs)
            return "%s.s%d" % (name, r.randrange(n))
        return r.choice(self.vars)

    def expr(self, depth=0):
        r = self.r
        if depth >= 3 or r.random() < 0.25 + 0.2 * depth:
            return self.leaf()
        a = lambda: self.expr(depth + 1)
        k = r.randrange(40)
        if k < 10:
            op = r.choice(["+", "-", "*", "^", "&", "|", "+", "^", "*"])
            return "(%s %s %s)" % (a(), op, a())
        if k == 10:
            return "(%s << (%s & 31u))" % (a(), a())
        if k == 11:
            return "(%s >> (%s & 31u))" % (a(), a())
        if k == 12:
            b = a()
            return "(%s != 0u ? %s / %s : %s)" % (b, a(), b, a())
        if k == 13:
            b = a()
            return "(%s != 0u ? %s %% %s : %s)" % (b, a(), b, a())
        if k == 14:
            return "(%s / ((%s) | 1u))" % (a(), a())
        if k == 15:
            return "(uint)(%s %s %s)" % (a(), r.choice(["<", "<=", ">", ">=", "==", "!="]), a())
        if k == 16:
            return "%s(%s, %s)" % (r.choice(["min", "max"]), a(), a())
        if k == 17:
            return "clamp(%s, %s & 0xffffu, %s | 0xffff0000u)" % (a(), a(), a())
        if k == 18:
            return "rotate(%s, %s)" % (a(), a())
        if k == 19:
            return "%s(%s)" % (r.choice(["popcount", "clz"]), a())
        if k == 20:
            return "mul_hi(%s, %s)" % (a(), a())
        if k == 21:
            return "mad24(%s & 0xfffu, %s & 0xfffffu, %s)" % (a(), a(), a())
        if k == 22:
            return "mul24(%s & 0xffffu, %s & 0xffffu)" % (a(), a())
        if k == 23:
            return "%s(%s, %s)" % (r.choice(["hadd", "rhadd", "abs_diff", "add_sat", "sub_sat"]), a(), a())
        if k == 24:
            return "select(%s, %s, %s)" % (a(), a(), a())
        if k == 25:
            return "(%s ? %s : %s)" % (self.cond(depth + 1), a(), a())
        if k == 26:
            return "bitselect(%s, %s, %s)" % (a(), a(), a())
        if k == 27:
            return "mad_hi(%s, %s, %s)" % (a(), a(), a())
        if k == 28:
            return "(uint)(((ulong)%s * (ulong)%s) >> %d)" % (a(), a(), r.choice([7, 16, 32, 40]))
        if k == 29:
            return "as_uint(as_int(%s) >> (%s & 31u))" % (a(), a())
        if k == 30:
            return "abs(as_int(%s))" % a()
        if k == 31:
            return "upsample((ushort)%s, (ushort)%s)" % (a(), a())
        if k == 32:
            return "(uint)(%s)%s" % (r.choice(["uchar", "ushort", "char", "short"]), a())
        if k == 33:
            return "(~%s)" % a()
        if k == 34:
            return "(-%s)" % a()
        if k == 35:
            return "mad_sat(%s, %s, %s)" % (a(), a(), a())
        if k == 36:
            return "(%s * %s + %s)" % (a(), self.const(), a())
        return self.leaf()

    def cond(self, depth=0):
        """A per-work-item (possibly divergent) condition."""
        r = self.r
        k = r.randrange(10)
        if k < 2:
            return "(%s & %su) %s %du" % (self.expr(depth + 1), r.choice(["3", "7", "15", "1"]),
                                          r.choice(["==", "<", "!="]), r.randint(0, 4))
        if k < 4:
            ids = self.lin_ids()
            return "%s %s %s" % (r.choice(ids), r.choice(["<", ">=", "==", "!="]),
                                 hexc(r.randint(0, max(1, self.ls))))
        if k < 5:
            return "(%s %% %du) == %du" % (r.choice(self.lin_ids()), r.randint(2, 7), r.randint(0, 1))
        if k < 8:
            return "%s %s %s" % (self.expr(depth + 1), r.choice(["<", ">", "<=", ">=", "==", "!="]),
                                 self.expr(depth + 1))
        if k < 9:
            return "(%s) && (%s)" % (self.cond(depth + 1) if depth < 2 else "lid != 0u",
                                     self.cond(depth + 1) if depth < 2 else "gid > 3u")
        return "(%s) || (%s)" % (self.cond(depth + 1) if depth < 2 else "lid == 1u",
                                 self.cond(depth + 1) if depth < 2 else "(gid & 1u) == 0u")

    def ucond(self):
        """A condition with the same value for every work-item of a group."""
        r = self.r
        k = r.randrange(6)
        if k == 0:
            return "p%d %s %du" % (r.randrange(3), r.choice(["<", ">", "==", "!="]), r.randint(0, 6))
        if k == 1:
            return "(grp %% %du) %s %du" % (r.randint(2, 5), r.choice(["==", "!="]), r.randint(0, 1))
        if k == 2:
            return "(in[(p3 + grp) %% n_in] & %su) != 0u" % r.choice(["1", "3", "8"])
        if k == 3 and any(l.uniform and l.var for l in self.loops):
            lp = r.choice([l for l in self.loops if l.uniform and l.var])
            return "%s %s p%d" % (lp.var, r.choice(["==", "<", ">"]), r.randrange(3))
        if k == 4:
            return "grp < %du" % r.randint(0, self.ngroups)
        return "(p3 >> %du & 1u) == 0u" % r.randrange(32)

    def ubound(self):
        """A uniform trip count and its largest value."""
        r = self.r
        k = r.randrange(5)
        if k == 0:
            n = r.randint(1, 6)
            return hexc(n), n
        if k == 1:
            return "p0", self.params[0]
        if k == 2:
            return "p1", self.params[1]
        if k == 3:
            return "(grp % 4u + 1u)", 4
        return "(p2 & 3u) + 1u", 4

    def dbound(self):
        """A per-work-item trip count and its largest value."""
        r = self.r
        m = r.choice([1, 3, 7])
        k = r.randrange(4)
        if k == 0:
            return "(%s & %du)" % (r.choice(self.vars), m), m
        if k == 1:
            return "(lid %% %du)" % (m + 1), m
        if k == 2:
            return "min(%s, %du)" % (self.expr(1), m), m
        return "((gid + %s) & %du)" % (r.choice(self.vars), m), m

    # ---- statements --------------------------------------------------------------------
    def emit(self, s):
        self.lines.append("    " * self.ind + s)

    def uniform_cf(self):
        return all(l.barriers for l in self.loops) and not getattr(self, "_div_if", 0)

    def assign(self):
        r = self.r
        v = r.choice(self.vars)
        op = r.choice(["=", "+=", "^=", "-=", "*=", "|=", "=", "^="])
        self.emit("%s %s %s;" % (v, op, self.expr()))

    def block(self, n):
        for _ in range(n):
            if self.budget <= 0:
                return
            self.stmt()

    def stmt(self):
        r = self.r
        self.budget -= 1
        ucf = self.uniform_cf()
        kinds = [(30, self.assign), (12, self.if_stmt), (4, self.switch_stmt)]
        if len(self.loops) < 3:
            kinds.append((14, self.loop_stmt))
        if self.loops:
            kinds.append((5, self.break_stmt))
        if self.arrays:
            kinds.append((6, self.array_stmt))
        if self.locals and ucf:
            kinds.append((10, self.local_block))
        if self.use_atomics and ucf:
            kinds.append((3, self.atomic_block))
        if self.use_wg and ucf:
            kinds.append((4, self.wg_stmt))
        if self.vecs:
            kinds.append((6, self.vec_stmt))
        if self.floats:
            kinds.append((5, self.float_stmt))
        x = r.uniform(0, sum(w for w, _ in kinds))
        for w, fn in kinds:
            x -= w
            if x <= 0:
                break
        fn()

    def array_stmt(self):
        r = self.r
        name, n = r.choice(self.arrays)
        self.emit("%s[(%s) %% %du] %s %s;" % (name, self.expr(1), n, r.choice(["=", "+=", "^="]), self.expr()))

    def if_stmt(self):
        r = self.r
        uniform = r.random() < 0.35
        c = self.ucond() if uniform else self.cond()
        self._div_if = getattr(self, "_div_if", 0) + (0 if uniform else 1)
        self.emit("if (%s) {" % c)
        self.ind += 1
        self.block(r.randint(1, 3))
        self.ind -= 1
        chain = r.randint(0, 2)
        for _ in range(chain):
            self.emit("} else if (%s) {" % (self.ucond() if uniform else self.cond()))
            self.ind += 1
            self.block(r.randint(1, 2))
            self.ind -= 1
        if r.random() < 0.5:
            self.emit("} else {")
            self.ind += 1
            self.block(r.randint(1, 2))
            self.ind -= 1
        self.emit("}")
        self._div_if -= 0 if uniform else 1

    def loop_stmt(self):
        r = self.r
        ucf = self.uniform_cf()
        uniform = r.random() < 0.55
        if uniform:
            bound, mx = self.ubound()
        else:
            bound, mx = self.dbound()
        mx = max(mx, 1)
        if self.mult * mx > self.mult_limit:
            self.assign()
            return
        barriers = uniform and ucf and r.random() < 0.8
        div_break = not barriers
        name = "i%d" % self.loop_id
        self.loop_id += 1
        kind = r.random()
        lp = Loop(name, uniform, barriers, div_break)
        if kind < 0.65 or barriers:
            start = r.choice(["0u", "0u", "1u"]) if not barriers else "0u"
            if start == "1u":
                self.emit("for (uint %s = 1u; %s <= %s; %s++) {" % (name, name, bound, name))
            elif r.random() < 0.3 and not barriers:
                self.emit("for (uint %s = %s; %s-- > 0u; ) {" % (name, bound, name))
            else:
                self.emit("for (uint %s = 0u; %s < %s; %s++) {" % (name, name, bound, name))
            self.loops.append(lp)
            self.mult *= mx
            self.ind += 1
            self.block(r.randint(1, 4))
            self.ind -= 1
            self.mult //= mx
            self.loops.pop()
            self.emit("}")
        elif kind < 0.85:
            self.emit("uint %s = %s;" % (name, bound))
            self.emit("while (%s != 0u) {" % name)
            self.ind += 1
            self.emit("%s--;" % name)
            self.loops.append(lp)
            self.mult *= mx
            self.block(r.randint(1, 3))
            self.mult //= mx
            self.loops.pop()
            self.ind -= 1
            self.emit("}")
        else:
            self.emit("uint %s = 0u;" % name)
            self.emit("do {")
            self.ind += 1
            self.loops.append(lp)
            self.mult *= mx + 1
            self.block(r.randint(1, 3))
            self.mult //= mx + 1
            self.loops.pop()
            self.ind -= 1
            self.emit("} while (%s++ < %s);" % (name, bound))

    def break_stmt(self):
        r = self.r
        lp = self.loops[-1]
        what = r.choice(["break", "continue"])
        if lp.barriers and not self.uniform_cf():
            self.assign()   # a uniform loop's exit under a divergent branch would diverge
            return
        if lp.div_break:
            c = self.cond()
        else:
            c = self.ucond()
        self.emit("if (%s) %s;" % (c, what))

    def local_block(self):
        r = self.r
        name, k = r.choice(self.locals)
        size = "%du" % (self.ls * k)
        for j in range(k):
            self.emit("%s[lid * %du + %du] = %s;" % (name, k, j, self.expr()))
        self.emit("barrier(CLK_LOCAL_MEM_FENCE);")
        for _ in range(r.randint(1, 3)):
            v = r.choice(self.vars)
            idx = r.choice(["(%s) %% %s" % (self.expr(1), size),
                            "(lid + %du) %% %s" % (r.randint(1, 2 * self.ls), size),
                            "%s - 1u - lid * %du" % (size, k),
                            "(lid ^ %du) %% %s" % (r.randint(1, 7), size)])
            if r.random() < 0.3:
                self.emit("if (%s) %s ^= %s[%s];" % (self.cond(), v, name, idx))
            else:
                self.emit("%s %s %s[%s];" % (v, r.choice(["+=", "^=", "="]), name, idx))
        self.emit("barrier(CLK_LOCAL_MEM_FENCE);")

    def atomic_block(self):
        r = self.r
        op = r.choice(["atomic_add", "atomic_xor", "atomic_or", "atomic_max", "atomic_min", "atomic_and"])
        self.emit("if (lid == 0u) lc[0] = %s;" % self.expr(2))
        self.emit("barrier(CLK_LOCAL_MEM_FENCE);")
        if r.random() < 0.5:
            self.emit("if (%s) %s(&lc[0], %s);" % (self.cond(), op, self.expr(1)))
        else:
            self.emit("%s(&lc[0], %s);" % (op, self.expr(1)))
        self.emit("barrier(CLK_LOCAL_MEM_FENCE);")
        self.emit("%s ^= lc[0];" % r.choice(self.vars))
        self.emit("barrier(CLK_LOCAL_MEM_FENCE);")

    def wg_stmt(self):
        r = self.r
        self.used_wg = True
        v = r.choice(self.vars)
        k = r.randrange(6)
        if k == 0:
            e = "work_group_reduce_%s(%s)" % (r.choice(["add", "min", "max"]), self.expr(1))
        elif k == 1:
            e = "work_group_scan_%s_%s(%s)" % (r.choice(["inclusive", "exclusive"]),
                                               r.choice(["add", "min", "max"]), self.expr(1))
        elif k == 2:
            if self.dims == 2:
                e = "work_group_broadcast(%s, %du, %du)" % (self.expr(1), r.randrange(self.local[0]),
                                                            r.randrange(self.local[1]))
            else:
                e = "work_group_broadcast(%s, %du)" % (self.expr(1), r.randrange(self.ls))
        elif k == 3:
            e = "(uint)work_group_%s(%s)" % (r.choice(["all", "any"]), self.cond())
        else:
            e = "work_group_reduce_add(%s)" % self.expr(1)
        self.emit("%s %s %s;" % (v, r.choice(["+=", "^=", "="]), e))

    def vec_stmt(self):
        r = self.r
        name, n = r.choice(self.vecs)
        t = "uint%d" % n
        it = "int%d" % n
        k = r.randrange(9)
        sw = "".join(r.choice("xyzw"[:n]) for _ in range(n))
        if k == 0:
            self.emit("%s = %s * (%s)(%s) + %s.%s;" % (name, name, t, self.expr(1), name, sw))
        elif k == 1:
            self.emit("%s.s%d = %s;" % (name, r.randrange(n), self.expr()))
        elif k == 2:
            self.emit("%s = select(%s, %s.%s, %s > (%s)(%s));" % (name, name, name, sw, name, t, self.expr(1)))
        elif k == 3:
            self.emit("%s = rotate(%s, (%s)(%s)) ^ (%s >> ((%s)(%s) & (%s)(31u)));" %
                      (name, name, t, self.expr(1), name, t, self.expr(1), t))
        elif k == 4:
            self.emit("{ uint t%d[%d]; vstore%d(%s, 0, t%d); %s ^= t%d[(%s) %% %du]; }" %
                      (n, n, n, name, n, r.choice(self.vars), n, self.expr(1), n))
        elif k == 5:
            self.emit("{ uint t%d[%d]; vstore%d(%s, 0, t%d); t%d[(%s) %% %du] = %s; %s = vload%d(0, t%d); }" %
                      (n, n, n, name, n, n, self.expr(1), n, self.expr(1), name, n, n))
        elif k == 6:
            self.emit("if (%s(%s %s (%s)(%s))) %s += %s.s%d;" %
                      (r.choice(["any", "all"]), name, r.choice(["<", ">", "=="]), t, self.expr(1),
                       r.choice(self.vars), name, r.randrange(n)))
        elif k == 7:
            self.emit("%s = min(%s, %s.%s) + max(%s, (%s)(%s)) + popcount(%s);" %
                      (name, name, name, sw, name, t, self.expr(1), name))
        else:
            self.emit("%s = %s + as_%s((%s)(%s) >> (%s)(%d));" % (name, name, t, it, self.expr(1), it, r.randrange(32)))

    def float_stmt(self):
        r = self.r
        f = r.choice(self.floats)
        g = r.choice(self.floats)
        k = r.randrange(7)
        cv = "convert_float(%s & 0x%xu)" % (self.expr(1), r.choice([0xff, 0xfff, 0xffff]))
        if k == 0:
            self.emit("%s = %s * %s;" % (f, g, cv))
        elif k == 1:
            self.emit("%s = %s %s %s;" % (f, g, r.choice(["+", "-"]), cv))
        elif k == 2:
            self.emit("%s = fma(%s, %s, %s);" % (f, g, cv, f))
        elif k == 3:
            self.emit("%s ^= fbits(%s);" % (r.choice(self.vars), f))
        elif k == 4:
            self.emit("%s += convert_uint_sat(%s);" % (r.choice(self.vars), f))
        elif k == 5:
            self.emit("if (%s %s %s) %s = %s;" % (f, r.choice(["<", ">", "=="]), cv, r.choice(self.vars), self.expr(1)))
        else:
            self.emit("%s = %s - %s * %s;" % (f, f, g, cv))

    def row_walks(self):
        """Loops in which each work-item reads a row of `in` of its own (`in[rb + j]`, int
        indices: compiler/transform/rowunroll.c unrolls them and the vectorizer reads the rows
        whole, vectorize_rows.c), of a length the work-items share or not, in uniform or
        divergent control flow. Drawn from a second generator seeded from the seed, after the
        rest of the body: the statements before them are what earlier versions generated."""
        r = random.Random(self.seed * 7919 + 17)
        for k in range(r.choice([0, 1, 1, 2])):
            c = r.randint(1, min(40, self.n_in))
            rows = self.n_in // c
            base, acc, other = (r.choice(self.vars) for _ in range(3))
            guard = r.random() < 0.3
            if guard:
                self.emit("if ((%s %% %du) != %du) {" % (r.choice(self.vars + ["lid", "gid"]), r.randint(2, 5), r.randint(0, 1)))
                self.ind += 1
            self.emit("{")
            self.ind += 1
            self.emit("int rb%d = (int)((%s %% %du) * %du);" % (k, base, rows, c))
            if r.random() < 0.5:
                length = "%d" % c
            else:
                self.emit("int rl%d = (int)(%s %% %du);" % (k, r.choice(self.vars), c + 1))
                length = "rl%d" % k
            self.emit("for (int rj = 0; rj < %s; rj++) {" % length)
            self.ind += 1
            self.emit("%s = %s * 0x01000193u ^ in[rb%d + rj];" % (acc, acc, k))
            if r.random() < 0.5:
                self.emit("%s += in[rb%d + rj] >> (rj & 3);" % (other, k))
            self.ind -= 1
            self.emit("}")
            self.ind -= 1
            self.emit("}")
            if guard:
                self.ind -= 1
                self.emit("}")

    def switch_stmt(self):
        r = self.r
        self.emit("switch (%s & 3u) {" % self.expr(1))
        self._div_if = getattr(self, "_div_if", 0) + 1
        for case in r.sample(range(4), r.randint(1, 3)):
            self.emit("case %du:" % case)
            self.ind += 1
            self.assign()
            if r.random() < 0.7:
                self.emit("break;")
            self.ind -= 1
        self.emit("default:")
        self.ind += 1
        self.assign()
        self.emit("break;")
        self.ind -= 1
        self.emit("}")
        self._div_if -= 1

    # ---- whole kernel --------------------------------------------------------------------
    def generate(self):
        r = self.r
        lx, ly = self.local
        self.emit("uint lx = (uint)get_local_id(0);")
        if self.dims == 2:
            self.emit("uint ly = (uint)get_local_id(1);")
            self.emit("uint lid = ly * %du + lx;" % lx)
            self.emit("uint gid = (uint)get_global_id(1) * %du + (uint)get_global_id(0);" % self.glob[0])
            self.emit("uint grp = (uint)get_group_id(1) * (uint)get_num_groups(0) + (uint)get_group_id(0);")
            self.emit("uint oid = (uint)(get_global_id(1) - get_global_offset(1)) * %du"
                      " + (uint)(get_global_id(0) - get_global_offset(0));" % self.glob[0])
        else:
            self.emit("uint lid = lx;")
            self.emit("uint gid = (uint)get_global_id(0);")
            self.emit("uint grp = (uint)get_group_id(0);")
            self.emit("uint oid = (uint)(get_global_id(0) - get_global_offset(0));")
        for v in self.vars:
            self.emit("uint %s = %s;" % (v, r.choice([
                "in[oid % n_in]", "in[(gid * %du + %du) %% n_in]" % (r.randint(1, 9), r.randint(0, 99)),
                "gid * %s" % self.const(), "lid ^ p3", "grp + %s" % self.const(), self.const(),
                "(uint)(get_global_id(0) >> %d)" % r.choice([1, 4, 31, 32])])))
        for name, n in self.arrays:
            self.emit("uint %s[%d];" % (name, n))
            self.emit("for (uint t = 0u; t < %du; t++) %s[t] = in[(oid + t * %du) %% n_in] ^ t;" %
                      (n, name, r.randint(1, 50)))
        for name, n in self.vecs:
            self.emit("uint%d %s = (uint%d)(%s);" % (n, name, n, ", ".join(r.choice(self.vars) for _ in range(n))))
        for f in self.floats:
            self.emit("float %s = convert_float(%s & 0xfffu);" % (f, r.choice(self.vars)))
        body_start = len(self.lines)
        while self.budget > 0:
            self.stmt()
        self.row_walks()
        # results
        terms = list(self.vars)
        for name, n in self.arrays:
            terms.append("%s[%du]" % (name, r.randrange(n)))
            terms.append("%s[(%s) %% %du]" % (name, r.choice(self.vars), n))
        for name, n in self.vecs:
            terms += ["%s.s%d" % (name, i) for i in range(n)]
        for f in self.floats:
            terms.append("fbits(%s)" % f)
        acc = terms[0]
        for t in terms[1:]:
            acc = "(%s) * 0x01000193u ^ %s" % (acc, t) if len(acc) < 200 else "(%s ^ %s)" % (acc, t)
        self.emit("uint res = %s;" % acc)
        self.emit("out[oid] = res;")
        if self.use_group_out:
            p2 = 1
            while p2 < self.ls:
                p2 *= 2
            self.emit("lr[lid] = res;")
            self.emit("barrier(CLK_LOCAL_MEM_FENCE);")
            self.emit("for (uint s = %du; s > 0u; s >>= 1) {" % (p2 // 2))
            self.emit("    if (lid < s && lid + s < %du) lr[lid] %s lr[lid + s];" %
                      (self.ls, r.choice(["+=", "^=", "*="])))
            self.emit("    barrier(CLK_LOCAL_MEM_FENCE);")
            self.emit("}")
            self.emit("if (lid == %du) out[%du + grp] = lr[0];" % (r.randrange(self.ls), self.items))
        body = self.lines
        # assemble
        out = []
        meta = {"seed": self.seed, "dims": self.dims, "global": self.glob[:self.dims],
                "local": self.local[:self.dims], "offset": self.offset[:self.dims],
                "n_in": self.n_in, "n_out": self.items + (self.ngroups if self.use_group_out else 0),
                "params": self.params, "data_seed": self.data_seed,
                "dyn_local": self.ls * 1 if self.use_dyn_local else 0,
                "options": "-cl-std=CL3.0" if self.used_wg else ""}
        out.append("// weft-fuzz: " + json.dumps(meta, sort_keys=True))
        out.append("// seed %d: global %s, local %s, offset %s, %d work-groups%s" %
                   (self.seed, "x".join(map(str, self.glob[:self.dims])), "x".join(map(str, self.local[:self.dims])),
                    "x".join(map(str, self.offset[:self.dims])), self.ngroups,
                    ", options " + meta["options"] if meta["options"] else ""))
        out.append("// generated by tools/fuzz/gen_kernel.py %d" % self.seed)
        if self.floats:
            out.append("#pragma OPENCL FP_CONTRACT OFF")
            out.append("uint fbits(float f) { return isnan(f) ? 0x7fc00000u : as_uint(f); }")
        attr = ""
        if self.use_reqd:
            attr = "__attribute__((reqd_work_group_size(%d, %d, 1))) " % (self.local[0], self.local[1])
        args = "global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3"
        if self.use_dyn_local:
            args += ", local uint *dl"
        out.append("%skernel void k(%s)" % (attr, args))
        out.append("{")
        for name, k in self.locals:
            if name != "dl":
                out.append("    local uint %s[%d];" % (name, self.ls * k))
        if self.use_atomics:
            out.append("    local uint lc[1];")
        if self.use_group_out:
            out.append("    local uint lr[%d];" % self.ls)
        out += body
        out.append("}")
        return "\n".join(out) + "\n", meta


def generate(seed):
    """(source, meta) of the kernel of seed."""
    return Gen(seed).generate()


def read_meta(source):
    """The meta of a kernel written by generate (its `// weft-fuzz:` line)."""
    for line in source.splitlines():
        if line.startswith("// weft-fuzz: "):
            return json.loads(line[len("// weft-fuzz: "):])
    raise ValueError("no '// weft-fuzz:' line")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    src, _ = generate(a.seed)
    if a.output:
        with open(a.output, "w") as f:
            f.write(src)
    else:
        sys.stdout.write(src)


if __name__ == "__main__":
    main()
